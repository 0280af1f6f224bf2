#!/usr/bin/python3
"""bench-time.py RUNS OUT CMD...: run CMD with its standard output in OUT,
RUNS times, and print the best wall-clock and the best CPU (user + system)
seconds of the runs: "WALL CPU".  On a shared machine the best run is the one
least disturbed.  (os.wait4 for microseconds; GNU time only has 10 ms.)"""
import os
import sys
import time

n, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
best_w = best_c = None
for _ in range(n):
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.dup2(fd, 1)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    w = time.monotonic() - t0
    os.close(fd)
    if status != 0:
        sys.exit("bench-time.py: %s failed (status %d)" % (" ".join(cmd), status))
    c = ru.ru_utime + ru.ru_stime
    best_w = w if best_w is None else min(best_w, w)
    best_c = c if best_c is None else min(best_c, c)
print("%.4f %.4f" % (best_w, best_c))
