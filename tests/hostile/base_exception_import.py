"""An adapter module that raises a bare BaseException subclass while imported (N10)."""


class Vanished(BaseException):
    """Neither an Exception nor SystemExit: escaped `except Exception`."""


raise Vanished("the adapter gave up")
