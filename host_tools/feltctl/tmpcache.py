# Host tools: pruning of the build caches kept in the temp folder (the ROMFS images of
# feltctl.board.romfs, the mpy-cross trees of `feltctl replay/sim/demo --runtime micropython`). Each
# source change makes a new entry; without pruning a working machine collects hundreds of them.
import os
import shutil
import time

KEEP = 8  # newest entries kept whatever their age (parallel runs of different trees, CI jobs)
MIN_AGE_S = 600  # an entry used within this time is never removed (another process may be using it)


def touch(path):
    """Marks a cache entry as used now (a hit), so pruning keeps it."""
    try:
        os.utime(path)
    except OSError:
        pass


def prune(folder, prefix, keep=KEEP, min_age_s=MIN_AGE_S, now=None):
    """Removes entries of `folder` whose names start with `prefix`, except the `keep` most recently
    used and any used within `min_age_s` seconds. Returns the names removed. Never raises: a cache
    that cannot be pruned is only a cache that stays large."""
    now = time.time() if now is None else now
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return []
    aged = []
    for n in names:
        try:
            aged.append((os.stat(os.path.join(folder, n)).st_mtime, n))
        except OSError:
            continue
    aged.sort(reverse=True)
    removed = []
    for mtime, n in aged[keep:]:
        if now - mtime < min_age_s:
            continue
        path = os.path.join(folder, n)
        try:
            if os.path.isdir(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
            removed.append(n)
        except OSError:
            pass
    return sorted(removed)
