/*
 * Jump consistent hash (Lamping & Veach, "A Fast, Minimal Memory,
 * Consistent Hash Algorithm", 2014) speaking chbench's external placement
 * protocol, version 1 (docs/protocol.md).
 *
 * A key's 64-bit hash is FNV-1a 64 of its bytes; its owner is bucket
 * jump(hash, n) of the n nodes in the order given. Replica i >= 1 probes
 * jump(splitmix64(hash + i * 0x9E3779B97F4A7C15), n), skipping nodes
 * already chosen, as chbench's algorithms.SaltedReplicas does; so this
 * program places every key and every replica exactly as chbench's own
 * jump with -hash fnv1a64 (the conformance suite's reference check).
 *
 * Build and run:
 *     gcc -O2 -o jump examples/c/jump.c
 *     bin/chbench conformance -algo exec:./jump -reference jump -reference-hash fnv1a64
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t jump(uint64_t key, int32_t n) {
	int64_t b = -1, j = 0;
	while (j < n) {
		b = j;
		key = key * 2862933555777941757ULL + 1;
		j = (int64_t)((double)(b + 1) * ((double)(1LL << 31) / (double)((key >> 33) + 1)));
	}
	return (int32_t)b;
}

static uint64_t fnv1a64(const unsigned char *s, size_t len) {
	uint64_t h = 0xCBF29CE484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= s[i];
		h *= 0x100000001B3ULL;
	}
	return h;
}

static uint64_t mix64(uint64_t x) { /* the splitmix64 finalizer */
	x ^= x >> 30;
	x *= 0xBF58476D1CE4E5B9ULL;
	x ^= x >> 27;
	x *= 0x94D049BB133111EBULL;
	x ^= x >> 31;
	return x;
}

static int hexval(char c) {
	if (c >= '0' && c <= '9') return c - '0';
	if (c >= 'a' && c <= 'f') return c - 'a' + 10;
	if (c >= 'A' && c <= 'F') return c - 'A' + 10;
	return -1;
}

/* unescape decodes a token in place (%XX -> byte) and returns its length. */
static size_t unescape(char *s) {
	size_t o = 0;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '%' && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
			s[o++] = (char)(hexval(s[i + 1]) << 4 | hexval(s[i + 2]));
			i += 2;
		} else {
			s[o++] = s[i];
		}
	}
	return o;
}

/* A membership keeps its node IDs as the tokens received: they are
 * written back as they came. */
struct membership {
	unsigned long id;
	int32_t n;
	char **ids;
};

static struct membership *members;
static size_t nmembers;

static struct membership *find(unsigned long id) {
	for (size_t i = 0; i < nmembers; i++)
		if (members[i].id == id) return &members[i];
	return NULL;
}

static char *line;
static size_t cap;

static char *next_line(void) {
	ssize_t len = getline(&line, &cap, stdin);
	if (len < 0) return NULL;
	if (len > 0 && line[len - 1] == '\n') line[len - 1] = 0;
	return line;
}

static int contains(const int32_t *xs, int len, int32_t x) {
	for (int i = 0; i < len; i++)
		if (xs[i] == x) return 1;
	return 0;
}

/* replicas fills out with min(r, n) distinct buckets of key hash h. */
static int replicas(uint64_t h, int32_t n, int r, int32_t *out) {
	int want = r < n ? r : n, got = 0;
	out[got++] = jump(h, n);
	for (uint64_t i = 1; got < want && i <= (uint64_t)(64 * want); i++) {
		int32_t o = jump(mix64(h + i * 0x9E3779B97F4A7C15ULL), n);
		if (!contains(out, got, o)) out[got++] = o;
	}
	for (int32_t j = 1; got < want; j++) {
		int32_t o = (out[0] + j) % n;
		if (!contains(out, got, o)) out[got++] = o;
	}
	return got;
}

int main(void) {
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	char *l;
	while ((l = next_line()) != NULL) {
		unsigned long id, parent;
		long n, k;
		int r;
		if (strncmp(l, "hello ", 6) == 0) {
			printf("ok 1 c-jump weighted=no leave=last ordered=yes replicas=8\n");
		} else if (sscanf(l, "members %lu %lu %ld", &id, &parent, &n) == 3) {
			members = realloc(members, (nmembers + 1) * sizeof *members);
			struct membership *m = &members[nmembers++];
			m->id = id;
			m->n = (int32_t)n;
			m->ids = malloc(n * sizeof *m->ids);
			for (long i = 0; i < n && next_line(); i++) {
				*strchr(line, ' ') = 0; /* drop the weight: all weights are equal */
				m->ids[i] = strdup(line);
			}
			printf("ok\n");
		} else if (sscanf(l, "locate %lu %d %ld", &id, &r, &k) == 3) {
			struct membership *m = find(id);
			int32_t out[8];
			if (m == NULL || r < 1 || r > 8) {
				for (long i = 0; i < k && next_line(); i++) /* read the whole request first */
					;
				printf("error no membership %lu, or R %d not 1 to 8\n", id, r);
				fflush(stdout);
				continue;
			}
			printf("ok\n");
			for (long i = 0; i < k && next_line(); i++) {
				size_t len = unescape(line);
				int got = replicas(fnv1a64((unsigned char *)line, len), m->n, r, out);
				for (int j = 0; j < got; j++) printf(j ? " %s" : "%s", m->ids[out[j]]);
				printf("\n");
			}
		} else if (sscanf(l, "drop %lu", &id) == 1) {
			struct membership *m = find(id);
			if (m) {
				for (int32_t i = 0; i < m->n; i++) free(m->ids[i]);
				free(m->ids);
				*m = members[--nmembers];
			}
			printf("ok\n");
		} else {
			printf("error unknown request\n");
		}
		fflush(stdout);
	}
	return 0;
}
