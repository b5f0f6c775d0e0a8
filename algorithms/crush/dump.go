package crush

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// dump is the part of `crushtool -i map --dump -f json` (Ceph 16.2) that
// the mapper needs; weights are 16.16 integers there, exact, unlike the
// three decimals of `crushtool -d`.
type dump struct {
	Devices []struct {
		ID int `json:"id"`
	} `json:"devices"`
	Types []struct {
		ID   int    `json:"type_id"`
		Name string `json:"name"`
	} `json:"types"`
	Buckets []struct {
		ID     int32  `json:"id"`
		Name   string `json:"name"`
		Type   int    `json:"type_id"`
		Alg    string `json:"alg"`
		Hash   string `json:"hash"`
		Weight uint64 `json:"weight"`
		Items  []struct {
			ID     int32  `json:"id"`
			Weight Weight `json:"weight"`
		} `json:"items"`
	} `json:"buckets"`
	Rules []struct {
		ID    int    `json:"rule_id"`
		Name  string `json:"rule_name"`
		Steps []struct {
			Op   string `json:"op"`
			Item int    `json:"item"`
			Num  int    `json:"num"`
			Type string `json:"type"`
		} `json:"steps"`
	} `json:"rules"`
	Tunables struct {
		ChooseLocalTries         int `json:"choose_local_tries"`
		ChooseLocalFallbackTries int `json:"choose_local_fallback_tries"`
		ChooseTotalTries         int `json:"choose_total_tries"`
		ChooseLeafDescendOnce    int `json:"chooseleaf_descend_once"`
		ChooseLeafVaryR          int `json:"chooseleaf_vary_r"`
		ChooseLeafStable         int `json:"chooseleaf_stable"`
	} `json:"tunables"`
	ChooseArgs json.RawMessage `json:"choose_args"`
}

// DecodeDump reads a CRUSH map from the JSON of `crushtool -i map --dump
// -f json` (Ceph 16.2: devices, types, buckets with 16.16 weights, rules,
// tunables) and validates it. It returns an error naming the bucket,
// rule or step it cannot map: a bucket algorithm other than straw2 or a
// hash other than rjenkins1, a rule step other than take, choose or
// chooseleaf firstn, emit and the tries overrides, weight sets
// (choose_args), rule ids that are not 0, 1, 2, ... in order, a bucket
// weight that is not the sum of its items, and every error of
// [Map.Validate].
func DecodeDump(r io.Reader) (*Map, error) {
	var d dump
	dec := json.NewDecoder(r)
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("crush dump: %w", err)
	}
	if len(d.ChooseArgs) > 0 && string(d.ChooseArgs) != "{}" && string(d.ChooseArgs) != "null" {
		return nil, fmt.Errorf("crush dump: choose_args (weight sets) are not implemented")
	}
	m := &Map{Tunables: Tunables{
		ChooseLocalTries:         d.Tunables.ChooseLocalTries,
		ChooseLocalFallbackTries: d.Tunables.ChooseLocalFallbackTries,
		ChooseTotalTries:         d.Tunables.ChooseTotalTries,
		ChooseLeafDescendOnce:    d.Tunables.ChooseLeafDescendOnce != 0,
		ChooseLeafVaryR:          d.Tunables.ChooseLeafVaryR,
		ChooseLeafStable:         d.Tunables.ChooseLeafStable != 0,
	}}
	for _, dv := range d.Devices {
		if dv.ID < 0 || dv.ID >= MaxDevices {
			return nil, fmt.Errorf("crush dump: device id %d out of range", dv.ID)
		}
		m.Devices = max(m.Devices, dv.ID+1)
	}
	typeIndex := map[string]int{}
	for _, t := range d.Types {
		if t.ID < 0 || t.ID > 1<<16 {
			return nil, fmt.Errorf("crush dump: type %q id %d out of range", t.Name, t.ID)
		}
		for len(m.Types) <= t.ID {
			m.Types = append(m.Types, "")
		}
		m.Types[t.ID] = t.Name
		if _, dup := typeIndex[t.Name]; !dup {
			typeIndex[t.Name] = t.ID
		}
	}
	for _, db := range d.Buckets {
		if db.Alg != "straw2" {
			return nil, fmt.Errorf("crush dump: bucket %q (id %d): alg %s: only straw2 is implemented", db.Name, db.ID, db.Alg)
		}
		if db.Hash != "rjenkins1" {
			return nil, fmt.Errorf("crush dump: bucket %q (id %d): hash %s: only rjenkins1 exists", db.Name, db.ID, db.Hash)
		}
		if db.ID >= 0 || -1-int(db.ID) >= MaxDevices {
			return nil, fmt.Errorf("crush dump: bucket %q: id %d out of range", db.Name, db.ID)
		}
		b := &Bucket{ID: db.ID, Name: db.Name, Type: db.Type}
		for _, it := range db.Items {
			b.Items = append(b.Items, Item{ID: it.ID, Weight: it.Weight})
		}
		if b.Weight() != db.Weight {
			return nil, fmt.Errorf("crush dump: bucket %q (id %d): weight %d is not the sum %d of its items", db.Name, db.ID, db.Weight, b.Weight())
		}
		i := -1 - int(db.ID)
		for len(m.Buckets) <= i {
			m.Buckets = append(m.Buckets, nil)
		}
		if m.Buckets[i] != nil {
			return nil, fmt.Errorf("crush dump: bucket id %d appears twice (%q, %q)", db.ID, m.Buckets[i].Name, db.Name)
		}
		m.Buckets[i] = b
	}
	for ri, dr := range d.Rules {
		if dr.ID != ri {
			return nil, fmt.Errorf("crush dump: rule %q has id %d at position %d: rule ids must be 0, 1, 2, ... in order", dr.Name, dr.ID, ri)
		}
		rule := Rule{Name: dr.Name}
		for si, ds := range dr.Steps {
			var s Step
			switch ds.Op {
			case "take":
				s = Step{Op: OpTake, Arg1: ds.Item}
			case "choose_firstn", "chooseleaf_firstn":
				t, ok := typeIndex[ds.Type]
				if !ok {
					return nil, fmt.Errorf("crush dump: rule %q step %d: unknown type %q", dr.Name, si, ds.Type)
				}
				s = Step{Op: OpChooseFirstN, Arg1: ds.Num, Arg2: t}
				if ds.Op == "chooseleaf_firstn" {
					s.Op = OpChooseLeafFirstN
				}
			case "emit":
				s = Step{Op: OpEmit}
			case "set_choose_tries":
				s = Step{Op: OpSetChooseTries, Arg1: ds.Num}
			case "set_chooseleaf_tries":
				s = Step{Op: OpSetChooseLeafTries, Arg1: ds.Num}
			default:
				known := []string{"take", "choose_firstn", "chooseleaf_firstn", "emit", "set_choose_tries", "set_chooseleaf_tries"}
				return nil, fmt.Errorf("crush dump: rule %q step %d: op %q is not implemented (only %v)", dr.Name, si, ds.Op, known)
			}
			rule.Steps = append(rule.Steps, s)
		}
		m.Rules = append(m.Rules, rule)
	}
	if slices.Contains(m.Types, "") {
		return nil, fmt.Errorf("crush dump: type ids are not contiguous from 0: %q", m.Types)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}
