package gents

import (
	"slices"
	"strconv"

	"github.com/errgen/errgen/internal/runtimedata"
	"github.com/errgen/errgen/internal/tscompile"
)

// The JavaScript of the contract's two modules, dist/contract.js and
// dist/constructors.js, is written here from the view, as esbuild compiles
// src/contract.ts and src/constructors.ts: the types dropped, each
// exported value a const or a function of its own, one export clause at
// the end, strings and numbers printed as esbuild prints them
// (tscompile.AppendString). Compiling them cost most of the TypeScript
// emitter's time and memory on a large contract, all to print data that is
// already at hand. The two templates and these writers change together:
// TestContractModulesMatchCompilation compiles the templates' output with
// esbuild and compares, on every test contract (one of them full of awkward
// texts); FuzzJSLiterals holds the literal printing to esbuild's.

// jsModule is a module's JavaScript under construction: its text and the
// names its export clause lists.
type jsModule struct {
	b       []byte
	exports []string
}

// str appends s as a string literal.
func (m *jsModule) str(s string) { m.b = tscompile.AppendString(m.b, s) }

// constant appends `const name = <raw>;`, raw a literal as the template
// writes it (a number, true, null, or a JSON string).
func (m *jsModule) constant(name, raw string) {
	m.exports = append(m.exports, name)
	m.b = append(m.b, "const "+name+" = "...)
	m.b = append(tscompile.AppendJSON(m.b, raw), ";\n"...)
}

// frozen appends `const name = deepFreeze(<table>);`, table the printed JSON.
func (m *jsModule) frozen(name, table string) {
	m.exports = append(m.exports, name)
	m.b = append(m.b, "const "+name+" = deepFreeze("...)
	m.b = append(tscompile.AppendJSON(m.b, table), ");\n"...)
}

// text appends `const name = "<s>";`.
func (m *jsModule) text(name, s string) {
	m.exports = append(m.exports, name)
	m.b = append(m.b, "const "+name+" = "...)
	m.str(s)
	m.b = append(m.b, ";\n"...)
}

// names appends `const name = deepFreeze(["a", "b"]);`, on one line as the
// template writes it.
func (m *jsModule) names(name string, vals []string) {
	m.exports = append(m.exports, name)
	m.b = append(m.b, "const "+name+" = deepFreeze(["...)
	for i, s := range vals {
		if i > 0 {
			m.b = append(m.b, ", "...)
		}
		m.str(s)
	}
	m.b = append(m.b, "]);\n"...)
}

// done appends the export clause, its names sorted as esbuild sorts them.
func (m *jsModule) done() []byte {
	slices.Sort(m.exports)
	m.b = append(m.b, "export {\n"...)
	for i, name := range m.exports {
		m.b = append(m.b, "  "+name...)
		if i < len(m.exports)-1 {
			m.b = append(m.b, ',')
		}
		m.b = append(m.b, '\n')
	}
	return append(m.b, "};\n"...)
}

// contractJS is dist/contract.js (templates/ts/contract.ts.tmpl compiled);
// size is the TypeScript source's, which the JavaScript is shorter than.
func contractJS(v *view, size int) []byte {
	m := &jsModule{b: make([]byte, 0, size)}
	m.b = append(m.b, v.Header+"\n"+`import { deepFreeze } from "./freeze.js";`+"\n"...)
	m.text("CONTRACT_NAME", v.Contract)
	m.constant("CONTRACT_VERSION", v.ContractVersion)
	m.exports = append(m.exports, "Kinds")
	m.b = append(m.b, "const Kinds = deepFreeze({\n"...)
	for i, k := range v.Kinds {
		m.b = append(append(append(m.b, "  "...), k.Const...), ": "...)
		m.str(k.Name)
		if i < len(v.Kinds)-1 {
			m.b = append(m.b, ',')
		}
		m.b = append(m.b, '\n')
	}
	m.b = append(m.b, "});\n"...)
	kinds := make([]string, len(v.Kinds))
	for i, k := range v.Kinds {
		kinds[i] = k.Name
	}
	m.names("KNOWN_KINDS", kinds)
	for _, vocab := range []struct {
		name   string
		values []string
	}{
		{"ORIGINS", constNames(v.Origins)}, {"RECOVERY_ACTIONS", constNames(v.Actions)},
		{"SAME_ARGUMENTS_VALUES", constNames(v.SameArguments)}, {"SIDE_EFFECTS_VALUES", constNames(v.SideEffects)},
		{"GROUPS", constNames(v.Groups)},
	} {
		m.names(vocab.name, vocab.values)
	}
	m.frozen("CLASSIFICATIONS", v.Classifications)
	m.frozen("FALLBACK", v.Fallback)
	m.frozen("ACTION_STEPS", v.ActionSteps)
	m.frozen("RETRY_SAME_ARGUMENTS", v.RetrySame)
	m.frozen("MAY_HAVE_RUN_SIDE_EFFECTS", v.MayHaveRun)
	m.frozen("SAME_ARGUMENTS_UPGRADES", v.Upgrades)
	m.frozen("LAYOUT", v.Layout)
	m.frozen("FIELDS", v.Fields)
	m.frozen("RETRY", v.Retry)
	m.frozen("INBOUND", v.Inbound)
	m.frozen("CALL_ERROR", v.CallError)
	m.frozen("SHORT_FORM", v.ShortForm)
	m.text("MCP_ERROR_SCHEMA_JSON", v.MCPErrorSchema)
	m.frozen("HTTP_KINDS", v.HTTPKinds)
	m.text("SYNTHETIC_KIND_PREFIX", v.SyntheticPrefix)
	m.text("PROBLEM_TYPE_BASE", v.ProblemTypeBase)
	m.frozen("EXIT_CODES", v.ExitCodes)
	m.constant("DEFAULT_EXIT_CODE", strconv.Itoa(v.DefaultExitCode))
	m.frozen("MCP_ERROR_CODES", v.MCPErrorCodes)
	m.frozen("MCP_KIND_ERROR_CODES", v.MCPKindErrorCodes)
	m.constant("DEFAULT_MCP_ERROR_CODE", strconv.Itoa(v.DefaultMCPErrorCode))
	m.constant("MCP_META_KEY", v.MCPMetaKey)
	m.constant("CLI_FORM", v.CLIForm)
	m.constant("ECHO_BODY", v.EchoBody)
	m.constant("HTTP_STATUS_FIELD", v.HTTPStatusField)
	m.constant("ERROR_INFO_DOMAIN", v.AIPDomain)
	m.frozen("AIP_LEAVES", v.AIPLeaves)
	m.frozen("AIP_OFF_WIRE", v.AIPOffWire)
	m.frozen("AIP_REASONS", v.AIPReasons)
	m.frozen("LOG", v.Log)
	m.constant("SANITIZE_MAX_LENGTH", strconv.Itoa(v.SanitizeMaxLength))
	m.constant("SANITIZE_TRUNCATION_MARKER", v.SanitizeMarker)
	m.frozen("SANITIZE_MARKERS", v.SanitizeMarkers)
	m.frozen("SANITIZE_SECRETS", v.SanitizeSecrets)
	m.constant("SANITIZE_PATHS", strconv.FormatBool(v.SanitizePaths))
	m.frozen("SANITIZE_CREDENTIAL_NAMES", v.SanitizeCredentialNames)
	m.frozen("SANITIZED_FIELDS", v.SanitizedFields)
	return m.done()
}

// constructorsJS is dist/constructors.js (templates/ts/constructors.ts.tmpl
// compiled); size is the TypeScript source's.
func constructorsJS(v *view, size int) []byte {
	m := &jsModule{b: make([]byte, 0, size)}
	m.b = append(m.b, v.Header+"\n"...)
	m.b = append(m.b, "import { classifiedEnvelope"...)
	if len(v.RequiredContext) > 0 {
		m.b = append(m.b, ", requiredText"...)
	}
	m.b = append(m.b, " } from \"./classification.js\";\n"...)
	if v.SanitizesRequired {
		m.b = append(m.b, "import { sanitizeUnlessTrusted } from \"./sanitize.js\";\n"...)
	}
	if v.HasInbound {
		m.b = append(m.b, "import { INBOUND } from \"./contract.js\";\nimport { classifyWith } from \"./inbound.js\";\n"...)
	}
	// newEnvelope(kind, message, <context>, opts)
	m.exports = append(m.exports, "newEnvelope")
	m.b = append(m.b, "function newEnvelope(kind, message"...)
	for _, p := range v.RequiredContext {
		m.b = append(m.b, ", "+p.Name...)
	}
	m.b = append(m.b, ", opts) {\n  return "...)
	if len(v.RequiredContext) > 0 {
		m.b = append(m.b, "{ ...classifiedEnvelope(kind, message, opts)"...)
		for _, p := range v.RequiredContext {
			m.b = append(m.b, ", "+p.Member+": requiredText("...)
			m.str(p.Member)
			m.b = append(m.b, ", "+p.Name+", opts)"...)
		}
		m.b = append(m.b, " };\n}\n"...)
	} else {
		m.b = append(m.b, "classifiedEnvelope(kind, message, opts);\n}\n"...)
	}
	for _, k := range v.Kinds {
		m.exports = append(m.exports, "new"+k.Type)
		m.b = append(append(append(m.b, "function new"...), k.Type...), "(message"...)
		for _, p := range v.RequiredContext {
			m.b = append(m.b, ", "+p.Name...)
		}
		for _, p := range k.Required {
			m.b = append(append(m.b, ", "...), p.Name...)
		}
		m.b = append(m.b, ", opts) {\n  return { ...newEnvelope("...)
		m.str(k.Name)
		m.b = append(m.b, ", message"...)
		for _, p := range v.RequiredContext {
			m.b = append(m.b, ", "+p.Name...)
		}
		m.b = append(m.b, ", opts), kind: "...)
		m.str(k.Name)
		for _, p := range k.Required {
			switch {
			case p.Sanitized:
				m.b = append(m.b, ", "+p.Member+": sanitizeUnlessTrusted("+p.Name+", opts)"...)
			case p.Name == p.Member:
				m.b = append(m.b, ", "+p.Member...)
			default:
				m.b = append(m.b, ", "+p.Member+": "+p.Name...)
			}
		}
		m.b = append(m.b, " };\n}\n"...)
	}
	if v.HasInbound {
		for _, cl := range v.Classifiers {
			m.exports = append(m.exports, cl.Func)
			m.b = append(m.b, "function "+cl.Func+"(upstream) {\n  return classifyWith(INBOUND.classifiers["+strconv.Itoa(cl.Index)+"], upstream);\n}\n"...)
		}
		m.exports = append(m.exports, "classify")
		m.b = append(m.b, "function classify(upstream) {\n  return classifyWith(INBOUND.classifiers[0], upstream);\n}\n"...)
		if v.HasToolResult {
			m.exports = append(m.exports, "classifyToolResult")
			m.b = append(m.b, "function classifyToolResult() {\n  return { kind: INBOUND.toolResult, countsTowardBreaker: false, rule: 0 };\n}\n"...)
		}
	}
	return m.done()
}

// constNames lists the vocabulary's values.
func constNames(cs []runtimedata.Constant) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}
