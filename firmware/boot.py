# Felt boot loader (firmware, runs first on every reset of a MicroPython board): follows the
# pointer file /felt.slot written by `feltctl flash` and makes that firmware tree (/felt_a or
# /felt_b) the current folder, so the board's own lookup of "main.py" and every import come
# from it; a packed slot (one file, hardware/flashing.md "Packed slots") is mounted at /felt_run
# first (PackFS). Keep it small and stable: it is shared by the old and the new tree during a deploy.
# Ctrl-C is off first (issue 12 item 2): interrupted before the chdir, the board would look for
# /main.py, find none, and open the REPL. main.py closes it again before anything else.
if __name__ == "__main__":  # booting (the deploy agent also loads this file, for pack_fs)
    while True:
        try:
            import micropython

            micropython.kbd_intr(-1)
            for _ in (0, 1):
                pass  # a Ctrl-C that landed just before the lock is raised here, inside the try
            break
        except ImportError:
            break
        except KeyboardInterrupt:
            pass
import os

RUN = "/felt_run"  # where a packed slot is mounted; the firmware runs from there


def pack_fs():
    """The PackFS class (with Member), defined only when a packed slot boots or the deploy agent
    asks: a board booting plain files keeps none of it in RAM (boot.py's names stay in __main__)."""
    import io

    class Member(io.IOBase):
        """One file of a pack, open for reading: a window onto the pack file (a stream MicroPython's
        import reads through, in pieces of up to 255 bytes: the MP_STREAM_GET_BUFFER_SIZE answer)."""

        def __init__(self, path, offset, size):
            self.f = open(path, "rb")
            self.f.seek(offset)
            self.left = size

        def readinto(self, buf):
            n = min(len(buf), self.left)
            if n <= 0:
                return 0
            n = self.f.readinto(memoryview(buf)[:n])
            self.left -= n
            return n

        def read(self, n=-1):
            if n < 0 or n > self.left:
                n = self.left
            data = self.f.read(n)
            self.left -= len(data)
            return data

        def ioctl(self, request, arg):
            if request == 4:  # MP_STREAM_CLOSE
                self.f.close()
                return 0
            if request == 11:  # MP_STREAM_GET_BUFFER_SIZE
                return 255
            return -1

        def close(self):
            self.f.close()

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()


    class PackFS:
        """A packed firmware slot (one file, hardware/flashing.md "Packed slots") as a read-only file
        system for vfs.mount: a file is a window onto the pack (Member), so import reads it in place.
        In RAM: one index string, "\npath\tsize\toffset" a line (~37 bytes a file). The deploy agent
        (felt/deploy_agent.py) writes the format; this reads it."""

        def __init__(self, path):
            self.path = path
            self.cwd = ""
            with open(path, "rb") as f:
                f.seek(-16, 2)
                foot = f.read(16)
                if foot[:8] != b"FELTPK1 ":
                    raise OSError(22)  # EINVAL: not a pack
                f.seek(int(foot[8:], 16))
                lines = f.read().decode()[:-16].split("\n")
            self.index = "\n" + "\n".join(["\t".join(line.split("\t")[:2] + line.split("\t")[3:4])
                                             for line in lines if line]) + "\n"

        def mount(self, readonly, mkfs):
            pass

        def umount(self):
            pass

        def _rel(self, path):
            if not path.startswith("/") and self.cwd:
                path = self.cwd + "/" + path
            return path.strip("/")

        def _find(self, rel):
            at = self.index.find("\n" + rel + "\t")
            if at < 0:
                return None
            return self.index[at + 1:self.index.find("\n", at + 1)].split("\t")

        def _is_dir(self, rel):
            return rel == "" or self.index.find("\n" + rel + "/") >= 0

        def stat(self, path):
            rel = self._rel(path)
            entry = self._find(rel)
            if entry is not None:
                return (0x8000, 0, 0, 0, 0, 0, int(entry[1]), 0, 0, 0)
            if self._is_dir(rel):
                return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            raise OSError(2)  # ENOENT

        def ilistdir(self, path):
            rel = self._rel(path)
            head = "\n" + rel + "/" if rel else "\n"
            seen = {}
            at = self.index.find(head)
            while at >= 0:
                end = self.index.find("\n", at + 1)
                if end < 0:
                    break  # the index's last newline
                name, size = self.index[at + len(head):end].split("\t")[:2]
                if "/" in name:
                    name = name[:name.find("/")]
                    if name not in seen:
                        seen[name] = 1
                        yield (name, 0x4000, 0, 0)
                else:
                    yield (name, 0x8000, 0, int(size))
                at = self.index.find(head, end)

        def open(self, path, mode="r"):
            entry = self._find(self._rel(path))
            if "w" in mode or "a" in mode or "+" in mode:
                raise OSError(30)  # EROFS
            if entry is None:
                raise OSError(2)
            f = Member(self.path, int(entry[2]), int(entry[1]))
            if "b" in mode:
                return f
            with f:
                return io.StringIO(f.read().decode())

        def chdir(self, path):
            rel = self._rel(path)
            if not self._is_dir(rel):
                raise OSError(2)
            self.cwd = rel

        def getcwd(self):
            return "/" + self.cwd

        def statvfs(self, path):
            return (4096, 4096, 0, 0, 0, 0, 0, 0, 0, 255)

    return PackFS


def run_pack(root):
    """Mount a packed slot at RUN and make it the current folder."""
    try:
        import vfs
    except ImportError:
        vfs = os
    vfs.mount(pack_fs()(root + "/pack"), RUN)
    os.chdir(RUN)


def _felt_boot():
    try:
        with open("/felt.slot") as f:
            slot = f.read().strip()
    except OSError:
        return  # not flashed by feltctl: the board runs /main.py as usual
    # A slot is bootable once its marker exists (written last by the deploy); the pointer only
    # ever names a bootable slot, the fallback covers a hand-edited or damaged pointer.
    for name in (slot, "b" if slot == "a" else "a"):
        root = "/felt_" + name
        try:
            os.stat(root + "/.felt-ok")
        except OSError:
            continue
        try:
            os.stat(root + "/pack")
        except OSError:
            os.chdir(root)  # a slot of plain files
            return
        try:
            run_pack(root)
            return
        except OSError:
            continue


if __name__ == "__main__":
    _felt_boot()
    del _felt_boot, run_pack, pack_fs  # a mounted PackFS keeps its own class alive
