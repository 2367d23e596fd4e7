"""JSON Schemas of each dialect's request and response, written from the providers' documentation."""
