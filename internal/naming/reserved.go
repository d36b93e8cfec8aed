package naming

import (
	"strconv"
	"strings"
)

// Lang is a target language of the generated code.
type Lang string

const (
	Go         Lang = "Go"
	TypeScript Lang = "TypeScript"
	Python     Lang = "Python"
	Rust       Lang = "Rust"
)

// Class is why a word is reserved in a language; it decides what an
// identifier landing on it does (see the table).
type Class string

const (
	// Keyword is a word the language reserves: never an identifier.
	Keyword Class = "keyword"
	// Builtin is a predeclared name (Go's predeclared identifiers,
	// Python's builtins, JavaScript's global objects): legal as a name, but
	// as a parameter, attribute or type it shadows what generated code uses.
	Builtin Class = "builtin"
	// ObjectMember is a member every JavaScript object inherits from
	// Object.prototype: as a member of a generated type or a key of a
	// generated table it clashes with the inherited one (tsc rejects the
	// Envelope type, and a lookup finds the inherited function).
	ObjectMember Class = "Object.prototype member"
	// Dunder is a Python special name.
	Dunder Class = "special name"
	// Local is a name the generated constructors use in their bodies, which
	// a parameter made from a field must not shadow.
	Local Class = "constructor local"
	// Variant is the variant an open enum of the generated Rust crate
	// keeps a value the contract does not list in (Kind::Other(String)): a
	// contract value whose variant would be the same name is rejected.
	Variant Class = "variant of an open enum"
	// Package is a name the generated package declares at its top level
	// (or, for Go, as a method of Envelope) that a name made from the
	// contract could take: Go's exported names and the init... methods,
	// TypeScript's and Python's class and type names and their new... and
	// classify... functions. A test checks this list against the code
	// generated from every test contract, so it stays complete.
	Package Class = "name of the generated package"
)

// reserved is the one table of reserved words, per language and class.
// Identifier forms escape the keywords and builtins with a trailing
// underscore (GoLocal, TSLocal, PythonLocal): a field called "type" stays
// usable. The loader rejects, with a position, names that would land on
// an ObjectMember, a Python constructor Local or a Package name through a
// form that is public API and cannot be escaped (a kind's constructor, a
// classifier's function, a constant). Emitters pick a free name for the
// types they name themselves (an object field's struct, class or interface).
var reserved = []struct {
	lang  Lang
	class Class
	words string
}{
	// The Go specification's keywords and predeclared identifiers.
	{Go, Keyword, `break case chan const continue default defer else fallthrough for func go goto if import
		interface map package range return select struct switch type var`},
	{Go, Builtin, `any append bool byte cap clear close comparable complex complex64 complex128 copy delete error
		false float32 float64 imag int int8 int16 int32 int64 iota len make max min new nil panic print println real
		recover rune string true uint uint8 uint16 uint32 uint64 uintptr`},
	// The receiver, the imports and the parameters of generated Go
	// functions.
	{Go, Local, `e json slog strconv time errors fmt message kind`},

	// ECMAScript's reserved words, strict mode's, await (reserved in
	// modules), arguments and eval (not bindable in strict code), and
	// TypeScript's predefined type names.
	{TypeScript, Keyword, `break case catch class const continue debugger default delete do else enum export
		extends false finally for function if import in instanceof new null return super switch this throw true
		try typeof var void while with implements interface let package private protected public static yield
		await arguments eval any boolean number string symbol never unknown object undefined`},
	// The global objects generated TypeScript uses and the utility types
	// of TypeScript's standard library: an interface of that name would
	// shadow them in its module.
	{TypeScript, Builtin, `Array ArrayBuffer BigInt Boolean DataView Date Error EvalError Function Infinity
		Intl JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set String
		Symbol SyntaxError TextDecoder TextEncoder TypeError URIError URL Uint8Array WeakMap WeakSet
		Awaited Capitalize ConstructorParameters Exclude Extract InstanceType Lowercase NonNullable Omit
		OmitThisParameter Parameters Partial Pick Readonly ReadonlyArray Record Required ReturnType
		ThisParameterType ThisType Uncapitalize Uppercase PropertyKey Headers Request Response`},
	{TypeScript, ObjectMember, `constructor hasOwnProperty isPrototypeOf propertyIsEnumerable toLocaleString
		toString valueOf __proto__ __defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__`},
	// What the constructors' bodies call, and their own parameters.
	{TypeScript, Local, `newEnvelope classifiedEnvelope requiredText sanitizeUnlessTrusted message opts`},

	// Python's keywords and soft keywords (keyword.kwlist, keyword.softkwlist).
	{Python, Keyword, `False None True and as assert async await break class continue def del elif else
		except finally for from global if import in is lambda nonlocal not or pass raise return try while with
		yield match case type _`},
	// Every name of Python's builtins module (3.9 to 3.13): an attribute
	// of that name shadows the builtin in the class body of a generated
	// dataclass, a parameter in the function body.
	{Python, Builtin, `abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
		classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter
		float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len
		license list locals map max memoryview min next object oct open ord pow print property quit range repr
		reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip
		ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
		BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
		ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning
		EnvironmentError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError
		FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
		InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
		ModuleNotFoundError NameError NotADirectoryError NotImplemented NotImplementedError OSError
		OverflowError PendingDeprecationWarning PermissionError ProcessLookupError PythonFinalizationError
		RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration
		StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError
		UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
		UnicodeWarning UserWarning ValueError Warning ZeroDivisionError`},
	// Python's special names. No contract name reaches them (every name
	// starts with a letter), which is why none needs a rule; they are
	// listed so the table is the whole answer.
	{Python, Dunder, `__init__ __new__ __del__ __repr__ __str__ __bytes__ __format__ __hash__ __bool__ __eq__
		__ne__ __lt__ __le__ __gt__ __ge__ __getattr__ __getattribute__ __setattr__ __delattr__ __dir__
		__class__ __dict__ __doc__ __module__ __name__ __qualname__ __slots__ __annotations__ __all__
		__version__ __post_init__ __dataclass_fields__ __match_args__ __import__ __builtins__ __file__`},
	// What the constructors' bodies call, and their own parameters.
	{Python, Local, `message trusted guidance new_envelope with_fields classified_envelope`},

	// Rust's strict and reserved keywords (edition 2021, and gen, reserved
	// from 2024 on): never an identifier, and self, super, crate and Self
	// not even as raw identifiers.
	{Rust, Keyword, `as break const continue crate else enum extern false fn for if impl in let loop match mod
		move mut pub ref return self Self static struct super trait true type unsafe use where while async await
		dyn abstract become box do final macro override priv typeof unsized virtual yield try gen`},
	// The primitive types, the prelude's names and the crates and std
	// types the generated crate uses: a struct named after an object field
	// must not shadow them in the generated module.
	{Rust, Builtin, `bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 Option Some None
		Result Ok Err String Vec Box ToString ToOwned Clone Copy Send Sync Sized Unpin Drop Fn FnMut FnOnce Default
		Eq PartialEq Ord PartialOrd Iterator IntoIterator DoubleEndedIterator ExactSizeIterator Extend Into From
		TryFrom TryInto FromIterator AsRef AsMut Debug Display Hash Cow BTreeMap Map Value Error std core alloc
		serde serde_json`},
	// The receiver and the parameters of the generated constructors.
	{Rust, Local, `e message`},
	{Rust, Variant, `Other`},
}

// index maps a language and a word to the classes that reserve it.
var index = func() map[Lang]map[string][]Class {
	out := map[Lang]map[string][]Class{}
	for _, r := range append(reserved, packageNames...) {
		if out[r.lang] == nil {
			out[r.lang] = map[string][]Class{}
		}
		for _, w := range strings.Fields(r.words) {
			out[r.lang][w] = append(out[r.lang][w], r.class)
		}
	}
	return out
}()

// Is reports whether class reserves word in lang.
func Is(lang Lang, class Class, word string) bool {
	for _, c := range index[lang][word] {
		if c == class {
			return true
		}
	}
	return false
}

// IsJoined is Is(lang, class, prefix+id) without making the joined string:
// the loader asks it for every kind.
func IsJoined(lang Lang, class Class, prefix, id string) bool {
	var buf [64]byte
	word := append(append(buf[:0], prefix...), id...)
	for _, c := range index[lang][string(word)] {
		if c == class {
			return true
		}
	}
	return false
}

// Reserved returns the words class reserves in lang, in table order.
func Reserved(lang Lang, class Class) []string {
	var out []string
	for _, r := range append(reserved, packageNames...) {
		if r.lang == lang && r.class == class {
			out = append(out, strings.Fields(r.words)...)
		}
	}
	return out
}

// escaped reports whether an identifier form must not be word as it is:
// keywords, builtins and constructor locals get a trailing underscore.
func escaped(lang Lang, word string) bool {
	for _, c := range index[lang][word] {
		if c == Keyword || c == Builtin || c == Local {
			return true
		}
	}
	return false
}

// FreeName returns the first of base, base+suffix, base+suffix+"2",
// base+suffix+"3", ... that taken does not hold. Emitters name the types of
// object fields with it, so such a type never lands on a name their package
// declares, whatever the field is called.
func FreeName(base, suffix string, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	name := base + suffix
	for n := 2; taken(name); n++ {
		name = base + suffix + strconv.Itoa(n)
	}
	return name
}
