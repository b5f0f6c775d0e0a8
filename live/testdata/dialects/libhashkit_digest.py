# Hashes keys with the installed libhashkit (libhashkit_digest through
# ctypes). One JSON request per line: {"keys": [...], "algorithms": [N, ...]}
# (hashkit_hash_algorithm_t values); reply {"has": [bool per algorithm],
# "digests": [[uint32 per key] per algorithm]}.
import ctypes
import json
import sys

lib = ctypes.CDLL("libhashkit.so.2")
lib.libhashkit_digest.restype = ctypes.c_uint32
lib.libhashkit_digest.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
lib.libhashkit_has_algorithm.restype = ctypes.c_bool

for line in sys.stdin:
    req = json.loads(line)
    keys = [k.encode("utf-8") for k in req["keys"]]
    algs = req["algorithms"]
    print(json.dumps({
        "has": [lib.libhashkit_has_algorithm(a) for a in algs],
        "digests": [[lib.libhashkit_digest(k, len(k), a) for k in keys] for a in algs],
    }), flush=True)
