"""`toolwire lint`: the protocol rules on a request, response, stream or cassette, no adapter."""
