package analysis

import "github.com/chbench/chbench/keyset"

// progressSource is a keyset.Source that reports every chunk it hands out to
// a progress hook (see Options.Progress) after the chunk's fn returns.
type progressSource struct {
	keyset.Source
	progress func(keys int64)
}

// Each implements keyset.Source: fn, then progress(len(keys)), per chunk.
func (p progressSource) Each(workers int, fn func(worker, set int, keys []string)) error {
	return p.Source.Each(workers, func(w, set int, keys []string) {
		fn(w, set, keys)
		p.progress(int64(len(keys)))
	})
}

// withProgress returns src reporting to progress, or src itself when
// progress is nil (so the hot path is unchanged without a hook).
func withProgress(src keyset.Source, progress func(keys int64)) keyset.Source {
	if progress == nil {
		return src
	}
	return progressSource{src, progress}
}

// RunKeys returns the number of keys one Movement or Spread run with o
// streams: keys per set x sets for generated keys, the file's key count
// for a key file or trace (0 without a source). Callers sum it over runs to give a
// progress display its total.
func (o Options) RunKeys() int64 {
	switch s := o.Keys.(type) {
	case FileSource:
		return int64(s.Keys())
	case *keyset.Generator:
		return int64(s.Keys()) * int64(s.Sets())
	}
	return 0
}
