"""A placement that fails mid-run, for the command's error tests: it
speaks chbench's protocol (docs/protocol.md) until the first locate
request of membership 2 or later, answers two keys of it, writes a
message to standard error and exits with status 3. With "hang" as its
argument it stops answering there instead, and waits to be killed."""
import sys
import time

inp, out = sys.stdin.buffer, sys.stdout
for line in inp:
    words = line.split()
    if words[0] == b"hello":
        out.write("ok 1 dies weighted=yes leave=any ordered=no\n")
    elif words[0] == b"members":
        for _ in range(int(words[3])):
            inp.readline()
        out.write("ok\n")
    elif words[0] == b"locate":
        keys = [inp.readline() for _ in range(int(words[3]))]
        if int(words[1]) >= 2:
            if sys.argv[1:] == ["hang"]:
                time.sleep(3600)
            out.write("ok\nnode-0\nnode-0\n")
            out.flush()
            sys.stderr.write("dies.py: giving up after two keys\n")
            sys.exit(3)
        out.write("ok\n" + "node-0\n" * len(keys))
    elif words[0] == b"drop":
        out.write("ok\n")
    out.flush()
