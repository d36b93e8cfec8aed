package contract

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgreementsLoad checks what the loader keeps of a contract whose
// classifiers keep their agreements: names, descriptions, the classifiers in
// file order and each side's kinds, a single kind written without a list
// included.
func TestAgreementsLoad(t *testing.T) {
	c, err := LoadFile(filepath.Join("testdata", "valid", "inbound_agreements", "kinds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range c.Inbound.Agreements {
		if a.Description == "" || a.Pos.Line == 0 {
			t.Errorf("agreement %s: description %q, position %v", a.Name, a.Description, a.Pos)
		}
		var sides []string
		for _, s := range a.Sides {
			var kinds []string
			for _, k := range s.Kinds {
				kinds = append(kinds, k.Name)
			}
			if c.Inbound.Classifiers[indexOf(c, s.Classifier)] != s.Classifier {
				t.Errorf("agreement %s: classifier %s is not the contract's", a.Name, s.Classifier.Name)
			}
			sides = append(sides, s.Classifier.Name+"="+strings.Join(kinds, ","))
		}
		got = append(got, a.Name+": "+strings.Join(sides, " "))
	}
	want := []string{
		"auth: model=oauth_needs_reauth,permission_denied breaker=auth_failed,auth_required logs=auth_failed",
		"timeouts: model=timeout breaker=timeout",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("agreements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func indexOf(c *Contract, cl *Classifier) int {
	for i, x := range c.Inbound.Classifiers {
		if x == cl {
			return i
		}
	}
	return 0
}

// TestAgreementProbesCoverEveryStatus: on random classifiers of status
// rules, checking the probes finds a disagreement exactly when checking
// every status of every rule of the sets does. The probes stand for a range
// by the codes where some rule starts or stops matching; this is the claim
// that nothing between them can differ.
func TestAgreementProbesCoverEveryStatus(t *testing.T) {
	kinds := []*Kind{{Value: Value{Name: "a"}}, {Value: Value{Name: "b"}}, {Value: Value{Name: "c"}}}
	rnd := rand.New(rand.NewSource(14))
	status := func() StatusRange {
		switch rnd.Intn(3) {
		case 0:
			c := 400 + rnd.Intn(200)
			return StatusRange{From: c, To: c}
		case 1:
			c := 3 + rnd.Intn(3)
			return StatusRange{From: c * 100, To: c*100 + 99}
		}
		from := 300 + rnd.Intn(300)
		return StatusRange{From: from, To: from + rnd.Intn(600-from)}
	}
	classifier := func(name string) *Classifier {
		cl := &Classifier{Name: name, Default: kinds[rnd.Intn(len(kinds))]}
		for range 1 + rnd.Intn(6) {
			r := &Rule{Kind: kinds[rnd.Intn(len(kinds))]}
			for range 1 + rnd.Intn(2) {
				r.Statuses = append(r.Statuses, status())
			}
			cl.Rules = append(cl.Rules, r)
		}
		return cl
	}
	found := 0
	for i := range 3000 {
		a := &Agreement{Name: "x"}
		for _, name := range []string{"one", "two"} {
			a.Sides = append(a.Sides, &AgreementSide{Classifier: classifier(name), Kinds: kinds[:1+rnd.Intn(2)]})
		}
		disagree := func(u Upstream) bool {
			in := 0
			for _, s := range a.Sides {
				if s.Has(s.Classifier.Classify(u).Kind) {
					in++
				}
			}
			return in != 0 && in != len(a.Sides)
		}
		fast := false
		for _, p := range agreementProbes(a, nil) {
			fast = fast || disagree(p.in)
		}
		full := false
		for _, s := range a.Sides {
			for _, r := range s.Classifier.Rules {
				if !s.Has(r.Kind.Name) {
					continue
				}
				for _, st := range r.Statuses {
					for code := st.From; code <= st.To; code++ {
						full = full || disagree(Upstream{Status: code})
					}
				}
			}
		}
		if fast != full {
			t.Fatalf("case %d: probes find a disagreement: %t, every status: %t\n%s", i, fast, full, describeAgreement(a))
		}
		if full {
			found++
		}
	}
	// Both outcomes must be common, or the comparison proves little.
	if found < 300 || found > 2700 {
		t.Errorf("%d of 3000 random agreements disagree; tune the generator", found)
	}
}

func describeAgreement(a *Agreement) string {
	var b strings.Builder
	for _, s := range a.Sides {
		fmt.Fprintf(&b, "%s (set %s, default %s):\n", s.Classifier.Name, kindList(s.Kinds, ", "), s.Classifier.Default.Name)
		for _, r := range s.Classifier.Rules {
			fmt.Fprintf(&b, "  %v -> %s\n", r.Statuses, r.Kind.Name)
		}
	}
	return b.String()
}
