package agenterror

import "strconv"

// aipOff is a value of the envelope that its layout does not carry, which
// the google.rpc mapping writes to the ErrorInfo metadata under key and
// sets back from it. aip193_contract.go lists the contract's
// (aipOffWireValues).
type aipOff struct {
	key string
	src uint8
}

// The sources of aipOff.
const (
	aipOffVersion uint8 = iota
	aipOffOrigin
	aipOffAction
	aipOffSameArguments
	aipOffGuidance
	aipOffSideEffects
)

// aipOffWire adds to meta the envelope's values its layout does not carry (an empty guidance is left out).
func (e *Envelope) aipOffWire(meta map[string]string) {
	for _, o := range aipOffWireValues {
		switch o.src {
		case aipOffVersion:
			// ContractVersion is an int, or a string for a contract whose
			// version is text.
			switch v := any(&e.ContractVersion).(type) {
			case *int:
				meta[o.key] = strconv.Itoa(*v)
			case *string:
				meta[o.key] = *v
			}
		case aipOffOrigin:
			meta[o.key] = string(e.Origin)
		case aipOffAction:
			meta[o.key] = string(e.Recovery.Action)
		case aipOffSameArguments:
			meta[o.key] = string(e.Recovery.SameArguments)
		case aipOffGuidance:
			if e.Recovery.Guidance != "" {
				meta[o.key] = e.Recovery.Guidance
			}
		case aipOffSideEffects:
			meta[o.key] = string(e.SideEffects)
		}
	}
}

// aipSetOffWire sets the values the layout does not carry from meta, where
// it has them; false when one does not read. Read from an upstream, the
// guidance and the enumerated values are sanitized as the decoder sanitizes
// them on the wire.
func (e *Envelope) aipSetOffWire(meta map[string]string) bool {
	for _, o := range aipOffWireValues {
		v, ok := meta[o.key]
		if !ok {
			continue
		}
		switch o.src {
		case aipOffVersion:
			switch dst := any(&e.ContractVersion).(type) {
			case *int:
				n, err := strconv.Atoi(v)
				if err != nil {
					return false
				}
				*dst = n
			case *string:
				*dst = v
			}
		case aipOffOrigin:
			e.Origin = Origin(Sanitize(v))
		case aipOffAction:
			e.Recovery.Action = RecoveryAction(Sanitize(v))
		case aipOffSameArguments:
			e.Recovery.SameArguments = SameArguments(Sanitize(v))
		case aipOffGuidance:
			e.Recovery.Guidance = Sanitize(v)
		case aipOffSideEffects:
			e.SideEffects = SideEffects(Sanitize(v))
		}
	}
	return true
}
