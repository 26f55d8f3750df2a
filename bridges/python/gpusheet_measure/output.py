"""Documents as JSON text, and how they reach the disk.

Files are written as the probe writes them: a temporary file created with
O_EXCL in the destination folder, fsync, then link() to the final name
(link never replaces an existing file, unlike rename), the temporary name
removed and the folder synced.
"""

import datetime
import json
import os

from .errors import OutputExists, WriteFailed

#: The largest count the format accepts (JSON integers as int64).
COUNT_MAX = 2 ** 63 - 1


def text(value):
    """A str for the file: bytes that are not UTF-8 become the text \\xNN.

    Strings from the environment or the command line can hold undecodable
    bytes (surrogate escapes); the format wants valid UTF-8.
    """
    if isinstance(value, bytes):
        raw = value
    else:
        raw = str(value).encode("utf-8", "surrogateescape")
    return raw.decode("utf-8", "backslashreplace")


def count(value):
    """An int the format accepts as a count, or None."""
    if value is None:
        return None
    value = int(value)
    if value < 0 or value > COUNT_MAX:
        raise ValueError("count out of range: %d" % value)
    return value


def today_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def dumps(doc):
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def check_output(path):
    """Refuse an existing file or a missing folder before any work."""
    if not path:
        raise OutputExists("empty output path")
    if os.path.lexists(path):
        raise OutputExists("'%s' already exists: choose a new file name for each run" % path)
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise OutputExists("output folder '%s' does not exist" % folder)
    if not os.access(folder, os.W_OK):
        raise OutputExists("output folder '%s' is not writable" % folder)


def write_new(path, content):
    """Write content (str) to a new file at path, atomically; never replace one."""
    check_output(path)
    folder = os.path.dirname(path) or "."
    base = os.path.basename(path)
    data = content.encode("utf-8")
    tmp, fd = None, -1
    for attempt in range(100):
        candidate = os.path.join(folder, ".%s.%d.%d" % (base, os.getpid(), attempt))
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        except OSError as e:
            raise WriteFailed("cannot create a temporary file in '%s': %s"
                              % (folder, e.strerror)) from None
        tmp = candidate
        break
    if tmp is None:
        raise WriteFailed("cannot create a temporary file in '%s'" % folder)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    except OSError as e:
        os.close(fd)
        os.unlink(tmp)
        raise WriteFailed("cannot write '%s': %s" % (tmp, e.strerror)) from None
    os.close(fd)
    try:
        os.link(tmp, path)
    except FileExistsError:
        # nothing lost: the result stays under its temporary name
        raise WriteFailed("'%s' appeared during the run and was kept; this result is in '%s'"
                          % (path, tmp)) from None
    except OSError as e:
        os.unlink(tmp)
        raise WriteFailed("cannot create '%s': %s" % (path, e.strerror)) from None
    os.unlink(tmp)
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # best effort: the file itself is on disk
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
