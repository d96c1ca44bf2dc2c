# Stops reading its input (its pipe shrunk to one page) and sleeps: the server's lines back
# up. Its clock stops it (TLE), and its driver must not wait on it forever.
import fcntl
import time

F_SETPIPE_SZ = 1031
try:
    fcntl.fcntl(0, F_SETPIPE_SZ, 4096)
except OSError:
    pass
time.sleep(3600)
