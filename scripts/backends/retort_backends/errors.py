"""The kinds of failure a worker reports, and the text it may send back.

Error text is built from exception messages that can quote anything in the model (node and
value names, attribute strings): before it leaves the worker it is made printable (control
characters, including ESC and line separators other than newline, become escapes) and bounded.
"""

MAX_MESSAGE = 4000
KEEP_TAIL = 1000


class ProtocolError(Exception):
    """A request the worker cannot act on (malformed, out of order, inputs unlike the model)."""


class Unsupported(Exception):
    """The model (or this use of an op or dtype) has no faithful form in the framework."""


class Failure(Exception):
    """A failed request whose kind ("unsupported" or "error") is already decided."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def printable(text):
    """text with every character but newline and tab that is not printable escaped."""
    text = text.replace("\r\n", "\n")
    return "".join(ch if ch in "\n\t" or ch.isprintable()
                   else ch.encode("unicode_escape").decode("ascii") for ch in text)


def bounded(text, limit=MAX_MESSAGE):
    """printable(text), at most about `limit` characters: the head and the tail are kept."""
    text = printable(text)
    if len(text) <= limit:
        return text
    head = limit - KEEP_TAIL
    return f"{text[:head]} [... {len(text) - limit} characters ...] {text[-KEEP_TAIL:]}"


def quoted(name):
    """A model's name as it may appear in a message: Python's repr, so always one line."""
    return repr(str(name))


def kind_of(exc, limits=()):
    """"unsupported" for Unsupported, a decided Failure's kind, or an exception that is one of
    the framework's `limits`: phrases in which it says it lacks a kernel or rule, or exception
    types it raises for that; "error" otherwise."""
    if isinstance(exc, Failure):
        return exc.kind
    if isinstance(exc, Unsupported):
        return "unsupported"
    if any(isinstance(limit, type) and isinstance(exc, limit) for limit in limits):
        return "unsupported"
    text = str(exc)
    return "unsupported" if any(limit in text for limit in phrases(limits)) else "error"


def phrases(limits):
    return [limit for limit in limits if isinstance(limit, str)]


def concise(exc, limits=()):
    """The message of exc; when it names one of `limits`, just the line that does."""
    text = str(exc)
    for line in text.splitlines():
        if any(limit in line for limit in phrases(limits)):
            return line.strip()
    return text
