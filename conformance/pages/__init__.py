"""The rule pages (docs/rules/): written from the rule definitions, never by hand."""
