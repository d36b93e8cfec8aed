package tsdecl

import (
	"strings"
	"testing"
)

// lines joins its arguments with newlines and ends them with one.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// reExports are re-exports, which the output keeps as written.
var reExports = lines(
	"export * from \"./a.js\";",
	"export type { B, C } from \"./b.js\";",
	"export {",
	"  d,",
	"  type E,",
	"} from \"./d.js\";",
)

// documentedB is a declaration whose documentation and line comments the
// output keeps as written.
var documentedB = lines(
	"/**",
	" * Multi-line.",
	" */",
	"export interface B {",
	"  /** Member docs stay. */",
	"  readonly b: string; // and so do line comments inside",
	"}",
)

var emitCases = []struct {
	name, src, want string
}{
	{
		name: "bodies with tricky tokens are dropped whole",
		src: lines(
			"// header",
			"",
			"/** f does things. */",
			"export function f(s: string): string {",
			"  const a = \"}\" + '{' + `${s.replace(/[}]/g, \"{\")} ${`}`}`; // }",
			"  /* } */ return a / 2 > 1 ? `}` : /\\/}/.source;",
			"}",
			"",
			"export const x: number = 1;",
		),
		want: lines(
			"/** f does things. */",
			"export declare function f(s: string): string;",
			"export declare const x: number;",
		),
	},
	{
		name: "return types with braces, predicates and generics",
		src: lines(
			"export function a(m: string): Envelope & { kind: \"x\"; n: { y: 1 } } { return {} as any; }",
			"export function b<T extends { k: string }>(v: unknown): v is T { return true; }",
			"export function c(): Promise<Map<string, Set<number>>> { return null!; }",
			"export function d(v: unknown): asserts v is string {}",
			"export function e(): `${Kind}_${string}` {}",
			"export function f(): { a: 1 } | { b: 2 }[] {}",
			"interface Envelope { kind: string }",
			"type Kind = \"a\";",
		),
		want: lines(
			"export declare function a(m: string): Envelope & { kind: \"x\"; n: { y: 1 } };",
			"export declare function b<T extends { k: string }>(v: unknown): v is T;",
			"export declare function c(): Promise<Map<string, Set<number>>>;",
			"export declare function d(v: unknown): asserts v is string;",
			"export declare function e(): `${Kind}_${string}`;",
			"export declare function f(): { a: 1 } | { b: 2 }[];",
			"interface Envelope { kind: string }",
			"type Kind = \"a\";",
			"export {};",
		),
	},
	{
		name: "default values",
		src: lines(
			"export function f(a: string, b: number = 2, opts?: O): void {}",
			"export function g(a: string = \"x\", b: number): void {}",
			"export function h(m: Map<string, number> = new Map<string, number>(), n: string = `,`, k = -1, ...rest: string[]): void {}",
			"export function i(cb: (a: string, b: number) => void = (a, b) => {}, x: boolean = a < b, y: number[] = [1, 2]): void {}",
			"export function j(u: A | B = a, v: string): void {}",
			"type O = {}; type A = 1; type B = 2;",
		),
		want: lines(
			"export declare function f(a: string, b?: number, opts?: O): void;",
			"export declare function g(a: string | undefined, b: number): void;",
			"export declare function h(m?: Map<string, number>, n?: string, k?: number, ...rest: string[]): void;",
			"export declare function i(cb?: (a: string, b: number) => void, x?: boolean, y?: number[]): void;",
			"export declare function j(u: (A | B) | undefined, v: string): void;",
			"type O = {};",
			"type A = 1;",
			"type B = 2;",
			"export {};",
		),
	},
	{
		name: "overloads lose their implementation",
		src: lines(
			"/** one */",
			"export function f(a: string): string;",
			"/** two */",
			"export function f(a: number): number;",
			"export function f(a: string | number): string | number { return a; }",
			"export function g(): void {}",
		),
		want: lines(
			"/** one */",
			"export declare function f(a: string): string;",
			"",
			"/** two */",
			"export declare function f(a: number): number;",
			"export declare function g(): void;",
		),
	},
	{
		name: "variables",
		src: lines(
			"export const A = \"a\", B = -1, C = true, D = 10n;",
			"export let e = 'x';",
			"export const F: readonly string[] = Object.freeze([\"a,b\", `;`]), G: Map<string, number> = new Map<string, number>();",
			"export const H: { readonly [K in Kind]?: number } = (() => { const o = {}; return o; })();",
			"const local = compute();",
			"type Kind = \"k\";",
		),
		want: lines(
			"export declare const A = \"a\", B = -1, C = true, D = 10n;",
			"export declare let e: string;",
			"export declare const F: readonly string[], G: Map<string, number>;",
			"export declare const H: { readonly [K in Kind]?: number };",
			"type Kind = \"k\";",
			"export {};",
		),
	},
	{
		name: "imports keep only what the declarations use",
		src: lines(
			"import { a, type B, c as C, type D } from \"./x.js\";",
			"import type { E, F } from \"./y.js\";",
			"import * as ns from \"./ns.js\";",
			"import def, { g } from \"./z.js\";",
			"import \"./side.js\";",
			"import { unused } from \"./u.js\";",
			"export function f(b: B, c: typeof C, e: E, n: ns.T): D { return a(b, c, e, n, def, g, unused); }",
		),
		want: lines(
			"import { type B, c as C, type D } from \"./x.js\";",
			"import type { E } from \"./y.js\";",
			"import * as ns from \"./ns.js\";",
			"import \"./side.js\";",
			"export declare function f(b: B, c: typeof C, e: E, n: ns.T): D;",
		),
	},
	{
		name: "private declarations an export uses, and only those",
		src: lines(
			"interface Used { a: string }",
			"interface Unused { b: string }",
			"type Deep = { u: Used };",
			"const table: Record<string, number> = {};",
			"const helper = () => 1;",
			"function internal(): number { return helper(); }",
			"export type T = `${Deep[\"u\"][\"a\"]}`;",
			"export const size: typeof table = table;",
			"export { internal as renamed };",
		),
		want: lines(
			"interface Used { a: string }",
			"type Deep = { u: Used };",
			"declare const table: Record<string, number>;",
			"declare function internal(): number;",
			"export type T = `${Deep[\"u\"][\"a\"]}`;",
			"export declare const size: typeof table;",
			"export { internal as renamed };",
			"export {};",
		),
	},
	{
		name: "re-exports stay as written",
		src:  reExports,
		want: reExports,
	},
	{
		name: "statements that are not declarations are dropped",
		src: lines(
			"const FLAGS = new Uint8Array(128);",
			"for (const c of \"abc\") { FLAGS[c.charCodeAt(0)] = 1; }",
			"for (let i = 0; i < 3; i++) FLAGS[i] = 2;",
			"if (FLAGS[0]) { FLAGS[1] = 1; } else if (x) FLAGS[2] = 3; else { }",
			"FLAGS[0x2d] = 4; // -",
			"try { f(); } catch { } finally { g(); }",
			"do x++; while (x < 3);",
			"label: for (;;) break label;",
			"switch (x) { case 1: { } default: }",
			"{ const y = /}/; }",
			"export const N: number = FLAGS.length;",
		),
		want: lines(
			"export declare const N: number;",
		),
	},
	{
		name: "documentation comments",
		src: lines(
			"/** Not this one: a line comment follows it. */",
			"// a note",
			"export const a: number = 1;",
		) + documentedB + lines(
			"/* a plain block comment */",
			"export type C = 1;",
		),
		want: lines(
			"export declare const a: number;",
			"",
		) + documentedB + lines(
			"export type C = 1;",
		),
	},
	{
		name: "classes",
		src: lines(
			"/** A class. */",
			"export class K<T> extends Base implements I {",
			"  /** The count. */",
			"  count: number = 0;",
			"  static readonly NAME = \"k\";",
			"  readonly flag = true;",
			"  name?: string;",
			"  #secret = 1;",
			"  private hidden: string = \"\";",
			"  [key: string]: unknown;",
			"  static { K.NAME.length; }",
			"  constructor(public readonly id: string, private store: Map<string, T>, n = 1) { super(); }",
			"  /** Gets. */",
			"  get size(): number { return this.count; }",
			"  set size(v: number) { this.count = v; }",
			"  at(i: number): T;",
			"  at(i: string): T;",
			"  at(i: number | string): T { return null!; }",
			"  async load(): Promise<void> {}",
			"  private helper(): void {}",
			"  #priv(): void {}",
			"  protected static make<U>(u: U): K<U> { return null!; }",
			"}",
			"class Base {}",
			"interface I {}",
		),
		want: lines(
			"/** A class. */",
			"export declare class K<T> extends Base implements I {",
			"  #private;",
			"  /** The count. */",
			"  count: number;",
			"  static readonly NAME = \"k\";",
			"  readonly flag = true;",
			"  name?: string;",
			"  private hidden;",
			"  [key: string]: unknown;",
			"  public readonly id: string;",
			"  private store;",
			"  constructor(id: string, store: Map<string, T>, n?: number);",
			"  /** Gets. */",
			"  get size(): number;",
			"  set size(v: number);",
			"  at(i: number): T;",
			"  at(i: string): T;",
			"  load(): Promise<void>;",
			"  private helper;",
			"  protected static make<U>(u: U): K<U>;",
			"}",
			"declare class Base {",
			"}",
			"interface I {}",
			"export {};",
		),
	},
	{
		name: "an empty module",
		src:  "// header\nconsole.log(1);\n",
		want: "export {};\n",
	},
	{
		name: "multi-line signatures keep their layout",
		src: lines(
			"export function f(",
			"  a: string, // first",
			"  b: {",
			"    c: number;",
			"  },",
			"): void {}",
		),
		want: lines(
			"export declare function f(a: string, b: {",
			"    c: number;",
			"  }): void;",
		),
	},
}

func TestEmit(t *testing.T) {
	for _, tt := range emitCases {
		got, err := Emit("t.ts", tt.src)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s:\n--- got\n%s--- want\n%s", tt.name, got, tt.want)
		}
	}
}

func TestEmitErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"export const a = compute();", "t.ts:1:14: const a has no type: a declaration written without tsc needs one unless the value is a string, number or boolean literal (isolatedDeclarations)"},
		{"export function f() {}", "t.ts:1:17: function f has no return type: a declaration written without tsc needs one (isolatedDeclarations)"},
		{"export function f(a): void {}", "t.ts:1:19: parameter a has no type: a declaration written without tsc needs one (isolatedDeclarations)"},
		{"export function f({ a = 1 }: O): void {}", "t.ts:1:23: a default value inside a destructuring parameter is not supported; give the parameter a name"},
		{"\nexport enum E { A }", "t.ts:2:8: enum is not supported in a declaration file written without tsc; use a union of string literals"},
		{"export namespace N {}", "t.ts:1:8: namespace is not supported in a declaration file written without tsc"},
		{"export default 1;", "t.ts:1:8: export default is not supported in a declaration file written without tsc"},
		{"export const { a } = o;", "t.ts:1:14: destructuring declarations are not supported: declare each name with its type"},
		{"export type A = 1\nexport type B = 2;", "t.ts:1:8: statement does not end with ; before the export on line 2"},
		{"const a = 1", "t.ts:1:1: statement does not end with ;"},
		{"export function f(): void { if (x) {", "t.ts:1:27: \"{\" is not closed"},
		{"function f(): void { ) }", "t.ts:1:22: \")\" does not close \"{\""},
		// A private declaration that cannot be declared is an error only
		// once an export needs it.
		{"const t = make();\nexport const u: typeof t = t;", "t.ts:1:7: const t has no type: a declaration written without tsc needs one unless the value is a string, number or boolean literal (isolatedDeclarations)"},
		{"export class C { m() {} }", "t.ts:1:18: method m has no return type: a declaration written without tsc needs one (isolatedDeclarations)"},
		{"export class C { p = f(); }", "t.ts:1:18: property p has no type: a declaration written without tsc needs one (isolatedDeclarations)"},
		// U+2028 ends a line, for JavaScript and for tsc's positions.
		{"export const s = \"\u2028\";\nexport const t = `", "t.ts:3:18: unterminated template literal"},
	} {
		_, err := Emit("t.ts", tt.src)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Emit(%q):\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
	// A private declaration nothing uses may be anything.
	if _, err := Emit("t.ts", "const t = make();\nexport const u: number = t;"); err != nil {
		t.Errorf("an unused private declaration without a type: %v", err)
	}
}

// FuzzEmit: no input makes Emit panic or loop; what it accepts, it accepts
// again from its own output (a declaration file is a module it can read).
func FuzzEmit(f *testing.F) {
	for _, s := range []string{
		"export function f(a: string = `${1}`): void {}",
		"export const a = 1; for (;;) {}",
		"export class C { constructor(private a: string) {} }",
		"import { a } from \"x\"; export { a };",
		"`${`${`",
		"export function",
		"export class C { get",
		"x = /a/ / /b/;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, err := Emit("f.ts", src)
		if err != nil {
			return
		}
		if _, err := Emit("f.d.ts", out); err != nil {
			t.Errorf("Emit(%q) = %q, which does not emit again: %v", src, out, err)
		}
	})
}
