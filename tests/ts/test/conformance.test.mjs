// The conformance vectors of the package's contract: the answers every
// generated package (Go, TypeScript, Python) must give.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { constructors, contextArgs, contextParams, newEnv, parsed, pkg, vectors } from "./env.mjs";

describe(`${pkg.CONTRACT_NAME}: contract`, () => {
  test("name, version and retry policy match the vectors", () => {
    assert.equal(pkg.CONTRACT_NAME, vectors.contract);
    assert.equal(pkg.CONTRACT_VERSION, vectors.version);
    const r = vectors.retry;
    assert.deepEqual(
      { ...pkg.RETRY },
      { initialMs: r.initial_ms, maxMs: r.max_ms, multiplier: r.multiplier, jitter: r.jitter, maxAttempts: r.max_attempts, maxHintMs: r.max_hint_ms },
    );
  });

  test("data tables are frozen", () => {
    assert.ok(Object.isFrozen(pkg.CLASSIFICATIONS));
    assert.ok(Object.isFrozen(pkg.CLASSIFICATIONS[pkg.KNOWN_KINDS[0]]));
    assert.ok(Object.isFrozen(pkg.LAYOUT));
    assert.ok(Object.isFrozen(pkg.KNOWN_KINDS));
    assert.throws(() => {
      "use strict";
      pkg.KNOWN_KINDS.push("x");
    });
  });
});

describe(`${pkg.CONTRACT_NAME}: lookup`, () => {
  const known = vectors.lookup.filter((v) => v.known).map((v) => v.kind);
  test("the known kinds are exactly the vectors' known kinds, in order", () => {
    assert.deepEqual([...pkg.KNOWN_KINDS], known);
    assert.deepEqual(Object.values(pkg.Kinds), known);
  });
  for (const v of vectors.lookup) {
    test(`lookup(${JSON.stringify(v.kind)})`, () => {
      const c = pkg.lookup(v.kind);
      const got = {
        kind: c.kind,
        known: c.known,
        group: c.group,
        origin: c.origin,
        action: c.action,
        same_arguments: c.sameArguments,
        guidance: c.guidance,
        side_effects: c.sideEffects,
        http_status: c.httpStatus,
        log_level: c.logLevel,
        breaker: c.breaker,
        retryable: c.retryable,
        startup: c.startup,
        number: c.number,
        grpc_code: c.grpcCode,
        grpc_status: c.grpcStatus,
        reason: c.reason,
      };
      assert.deepEqual(got, v);
      assert.equal(pkg.isKnownKind(v.kind), v.known);
      if (v.known && v.number >= 0) assert.equal(pkg.kindByNumber(v.number), v.kind);
    });
  }
  test("the fallback: every unknown kind, including names of Object.prototype members", () => {
    const fb = vectors.lookup.find((v) => !v.known);
    assert.ok(fb, "the vectors have an unknown kind");
    for (const kind of ["constructor", "__proto__", "toString", "hasOwnProperty", "", fb.kind]) {
      const c = pkg.lookup(kind);
      assert.equal(c.known, false, kind);
      assert.equal(c.kind, kind);
      assert.equal(c.origin, fb.origin);
      assert.equal(c.httpStatus, fb.http_status);
      assert.equal(pkg.isKnownKind(kind), false);
    }
    // lookup computes an unknown kind's ErrorInfo reason (aip193.test.mjs tests it); the rest is the fallback's.
    assert.deepEqual({ ...pkg.fallback(), kind: fb.kind, reason: pkg.lookup(fb.kind).reason }, { ...pkg.lookup(fb.kind) });
  });
});

describe(`${pkg.CONTRACT_NAME}: parse and serialize`, () => {
  for (const v of vectors.envelopes) {
    test(`envelope ${v.name}`, () => {
      const env = parsed(v.envelope);
      assert.equal(env.kind, v.kind);
      assert.equal(pkg.isKnownKind(env.kind), v.known);
      assert.equal(pkg.isRetryable(env), v.retryable);
      assert.equal(pkg.httpStatus(env), v.http_status);
      // Round trip: the same members, in the same order, as the Go encoder writes them.
      assert.deepEqual(pkg.toWire(env), v.envelope);
      assert.equal(pkg.serializeEnvelope(env), goJSON(v.envelope));
      const again = pkg.parseEnvelopeJson(pkg.serializeEnvelope(env));
      assert.ok(again.ok);
      assert.deepEqual(again.envelope, env);
      // Values the layout leaves off the wire come from the classification.
      const c = pkg.lookup(env.kind);
      for (const [source, value, got] of [
        ["origin", c.origin, env.origin],
        ["action", c.action, env.recovery.action],
        ["same_arguments", c.sameArguments, env.recovery.sameArguments],
        ["side_effects", c.sideEffects, env.sideEffects],
        ["version", pkg.CONTRACT_VERSION, env.contractVersion],
      ]) {
        if (!onWire(source)) assert.equal(got, value, source);
      }
    });
  }

  test("unknown members are kept in extra and written back", () => {
    const v = vectors.envelopes.find((e) => e.name === "unknown members");
    assert.ok(v, "the vectors have an envelope with unknown members");
    const env = parsed(v.envelope);
    assert.ok(env.extra && Object.keys(env.extra).length > 0);
    assert.deepEqual(pkg.toWire(env), v.envelope);
  });

  test("an extra entry never overrides a field of the contract", () => {
    const env = newEnv(pkg.KNOWN_KINDS[0], "the message");
    const kindLeaf = leaves().find((l) => l.source === "kind");
    const withExtra = { ...env, extra: { [kindLeaf.path]: "overridden", zzz: 1 } };
    const wire = pkg.toWire(withExtra);
    assert.equal(pkg.parseEnvelope(wire).envelope.kind, env.kind);
    assert.equal(wire.zzz, 1);
  });

  test("the retry hint's other spellings are accepted, the first spelling present wins", () => {
    const leaf = leaves().find((l) => l.source === "retry_after_ms");
    if (!leaf) return; // the layout does not carry a retry hint
    const base = pkg.toWire(newEnv(pkg.KNOWN_KINDS[0], "m"));
    const parent = leaf.path.split(".").slice(0, -1);
    const obj = parent.reduce((o, k) => o[k], base);
    for (const alias of leaf.aliases ?? []) {
      obj[alias] = 1500;
      const env = parsed(base);
      assert.equal(env.recovery.retryAfterMs, 1500);
      assert.equal(env.extra, undefined, "an alias does not resurface as extra");
      obj[leaf.name] = 700;
      assert.equal(parsed(base).recovery.retryAfterMs, 700);
      delete obj[leaf.name];
      obj[alias] = -1;
      const bad = pkg.parseEnvelope(base);
      assert.equal(bad.ok, false);
      assert.equal(bad.error.path, [...parent, alias].join("."));
      assert.equal(bad.error.category, "value");
      delete obj[alias];
    }
  });

  test("derived values received are kept and win over the computed ones", () => {
    const derived = leaves().filter((l) => l.received !== undefined);
    for (const leaf of derived) {
      const fb = vectors.lookup.find((v) => !v.known);
      const env = newEnv(fb.kind, "from a newer producer");
      const wire = pkg.toWire(env);
      const path = leaf.path.split(".");
      let o = wire;
      for (const k of path.slice(0, -1)) o = o[k] ??= {};
      const value = leaf.source === "group" ? "SOME_GROUP" : true;
      o[path.at(-1)] = value;
      const got = parsed(wire);
      assert.equal(got.received[leaf.received], value);
      if (leaf.source === "retryable") assert.equal(pkg.isRetryable(got), true);
      if (leaf.source === "may_have_run") assert.equal(pkg.workMayHaveRun(got), true);
      assert.deepEqual(pkg.toWire(got), wire);
    }
  });

  for (const v of vectors.malformed) {
    test(`malformed: ${v.name}`, () => {
      assert.ok(["syntax", "type", "missing", "value"].includes(v.category), v.category);
      if ("text" in v || "bytes" in v) {
        // Text that is not JSON at all or past a shared limit, as a string
        // and as UTF-8 bytes; bytes that are not UTF-8 JSON.
        assert.equal(["text", "bytes", "input"].filter((k) => k in v).length, 1, "a vector holds one of text, bytes and input");
        const inputs = "text" in v ? [v.text, new TextEncoder().encode(v.text)] : [new Uint8Array(Buffer.from(v.bytes, "base64"))];
        for (const input of inputs) {
          const r = pkg.parseEnvelopeJson(input);
          assert.equal(r.ok, false, "must be rejected");
          assert.equal(r.error.path, v.path, `${r.error.path}: ${r.error.problem}`);
          assert.equal(r.error.category, v.category, `${r.error.category}: ${r.error.problem}`);
        }
        return;
      }
      const r = pkg.parseEnvelope(v.input);
      assert.equal(r.ok, false, "must be rejected");
      assert.equal(r.error.path, v.path, `${r.error.path}: ${r.error.problem}`);
      assert.equal(r.error.category, v.category, `${r.error.category}: ${r.error.problem}`);
      assert.equal(typeof r.error.problem, "string");
      const text = pkg.parseEnvelopeJson(JSON.stringify(v.input));
      assert.equal(text.ok, false);
      assert.equal(text.error.path, v.path);
      assert.equal(text.error.category, v.category);
    });
  }

  for (const v of vectors.edges) {
    test(`edge: ${v.name}`, () => {
      // A document at an edge of what every decoder accepts: text (also as
      // UTF-8 bytes) or bytes that are not valid UTF-8.
      const inputs = "text" in v ? [v.text, new TextEncoder().encode(v.text)] : [new Uint8Array(Buffer.from(v.bytes, "base64"))];
      for (const input of inputs) {
        const r = pkg.parseEnvelopeJson(input);
        assert.ok(r.ok, r.ok ? "" : `${r.error.path}: ${r.error.problem}`);
        assert.deepEqual(pkg.toWire(r.envelope), v.envelope);
        const again = pkg.parseEnvelopeJson(pkg.serializeEnvelope(r.envelope));
        assert.ok(again.ok);
        assert.deepEqual(again.envelope, r.envelope);
      }
    });
  }

  test("limits every decoder shares: depth, numbers and lone surrogates, in a value as in text", () => {
    assert.equal(pkg.MAX_DEPTH, 128);
    const base = pkg.toWire(newEnv(pkg.KNOWN_KINDS[0], "m"));
    const nest = (n) => { let v = []; for (let i = 1; i < n; i++) v = [v]; return v; };
    // The envelope's object is the first level: 127 more are read, 128 are not.
    assert.ok(pkg.parseEnvelope({ ...base, x_deep: nest(pkg.MAX_DEPTH - 1) }).ok);
    for (const value of [{ ...base, x_deep: nest(pkg.MAX_DEPTH) }, { ...base, x_deep: nest(5000) }]) {
      const r = pkg.parseEnvelope(value);
      assert.equal(r.ok, false);
      assert.deepEqual([r.error.path, r.error.category], ["", "syntax"]);
    }
    // A cycle is too deep, not a stack overflow.
    const cyclic = { ...base, x_cycle: {} };
    cyclic.x_cycle.self = cyclic.x_cycle;
    assert.deepEqual(pkg.parseEnvelope(cyclic).error?.category, "syntax");
    for (const bad of [Infinity, -Infinity, NaN]) {
      assert.deepEqual(pkg.parseEnvelope({ ...base, x_number: [bad] }).error?.category, "syntax");
    }
    // A lone surrogate reads as U+FFFD, in a value and in a name, without
    // changing the input.
    const lone = { ...base, x_text: ["a\ud800b"], "x_\udc00": 1 };
    const got = parsed(lone);
    assert.deepEqual(got.extra, { x_text: ["a\ufffdb"], "x_\ufffd": 1 });
    assert.deepEqual(lone.x_text, ["a\ud800b"]);
  });

  test("encoders refuse what no decoder reads back, with a RangeError that says why", () => {
    const env = newEnv(pkg.KNOWN_KINDS[0], "m");
    const nest = (n) => { let v = []; for (let i = 1; i < n; i++) v = [v]; return v; };
    // Issue 15: past about 2,200 levels JSON.stringify overflowed the stack.
    for (const depth of [pkg.MAX_DEPTH, 5000]) {
      assert.throws(() => pkg.serializeEnvelope({ ...env, extra: { x: nest(depth) } }), (e) => e instanceof RangeError && /levels deep/.test(e.message));
    }
    assert.ok(pkg.serializeEnvelope({ ...env, extra: { x: nest(pkg.MAX_DEPTH - 1) } }));
    // Issue 15: a hint of 2^63-1 was written as 9223372036854776000, which Go rejects.
    for (const hint of [2 ** 53, 2 ** 63 - 1, 1.5]) {
      assert.throws(() => pkg.toWire({ ...env, recovery: { ...env.recovery, retryAfterMs: hint } }), RangeError);
    }
    assert.doesNotThrow(() => pkg.toWire({ ...env, recovery: { ...env.recovery, retryAfterMs: Number.MAX_SAFE_INTEGER } }));
  });

  test("parse never throws", () => {
    const hostile = [
      undefined,
      0,
      true,
      Symbol("x"),
      () => 1,
      new Proxy({}, { ownKeys: () => { throw new Error("boom"); } }),
      { __proto__: null },
      JSON.parse('{"__proto__": {"x": 1}}'),
    ];
    for (const input of hostile) {
      const r = pkg.parseEnvelope(input);
      assert.equal(r.ok, false);
      assert.ok(["type", "missing"].includes(r.error.category), r.error.category);
    }
    const r = pkg.parseEnvelopeJson("{not json");
    assert.equal(r.ok, false);
    assert.equal(r.error.path, "");
    assert.equal(r.error.category, "syntax");
  });

  test("a member named __proto__ is kept as extra, not as a prototype", () => {
    const wire = pkg.toWire(newEnv(pkg.KNOWN_KINDS[0], "m"));
    const text = JSON.stringify(wire).replace(/^\{/, '{"__proto__":{"polluted":true},');
    const env = pkg.parseEnvelopeJson(text).envelope;
    assert.deepEqual(env.extra.__proto__, { polluted: true });
    assert.equal({}.polluted, undefined);
    assert.ok(pkg.serializeEnvelope(env).includes('"__proto__":{"polluted":true}'));
  });

  test("a number JSON cannot carry is an error when serializing", () => {
    const env = newEnv(pkg.KNOWN_KINDS[0], "m");
    env.extra = { bad: Number.NaN };
    assert.throws(() => pkg.serializeEnvelope(env), RangeError);
    if (leaves().some((l) => l.source === "retry_after_ms")) {
      env.extra = undefined;
      env.recovery.retryAfterMs = Number.POSITIVE_INFINITY;
      assert.throws(() => pkg.toWire(env), RangeError);
    }
  });

  test("U+2028 and U+2029 are escaped as the Go encoder escapes them", () => {
    const env = newEnv(pkg.KNOWN_KINDS[0], "a\u2028b\u2029c");
    const text = pkg.serializeEnvelope(env);
    assert.ok(text.includes("a\\u2028b\\u2029c"));
    assert.equal(pkg.parseEnvelopeJson(text).envelope.message, "a\u2028b\u2029c");
  });
});

describe(`${pkg.CONTRACT_NAME}: constructors`, () => {
  const ctors = constructors();
  test("one constructor per known kind", () => {
    assert.deepEqual([...ctors.keys()].sort(), [...pkg.KNOWN_KINDS].sort());
  });
  for (const v of vectors.envelopes.filter((e) => e.known && e.name === e.kind)) {
    test(`${ctors.get(v.kind)?.exportName ?? "constructor"} builds the ${v.kind} vector`, () => {
      const want = parsed(v.envelope);
      const { fn, params } = ctors.get(v.kind);
      // The vectors carry text as received; constructors sanitize unless told it is trusted.
      const env = fn(want.message, ...params.slice(1).map((p) => want[p]), { trusted: true });
      assert.equal(env.kind, v.kind);
      for (const p of params.slice(1)) assert.notEqual(env[p], undefined, `required field ${p}`);
      // The vectors show a retry hint where the kind asks for a retry.
      if (want.recovery.retryAfterMs !== undefined) env.recovery.retryAfterMs = want.recovery.retryAfterMs;
      // Every reader sanitizes the guidance it reads, so the vectors carry a
      // stand-in where the contract's own is not a text the sanitizer keeps
      // (the escaping test contract's); the constructor puts the contract's.
      if (pkg.sanitize(env.recovery.guidance) !== env.recovery.guidance) env.recovery.guidance = want.recovery.guidance;
      assert.deepEqual(pkg.toWire(env), v.envelope);
    });
  }
  test("newEnvelope classifies any kind", () => {
    const fb = vectors.lookup.find((v) => !v.known);
    const env = newEnv(fb.kind, "m");
    assert.equal(env.kind, fb.kind);
    assert.equal(env.origin, fb.origin);
    assert.equal(env.recovery.action, fb.action);
    assert.equal(env.recovery.sameArguments, fb.same_arguments);
    assert.equal(env.recovery.guidance, pkg.FILLS_GUIDANCE ? fb.guidance : "");
    assert.equal(env.sideEffects, fb.side_effects);
    assert.equal(env.contractVersion, pkg.CONTRACT_VERSION);
  });
});

describe(`${pkg.CONTRACT_NAME}: context the layout requires, guidance it does not invent`, () => {
  const required = leaves().filter((l) => l.source === "field" && l.required === true);
  const guidance = leaves().find((l) => l.source === "guidance");
  test("the contract's own rules", () => {
    // ovstorage's v0.1 envelope requires operation and never invents
    // next_action; labby's flat layout requires guidance.
    const want = { ovstorage: [["operation"], false], "agent-error": [[], true], agento: [[], true] }[pkg.CONTRACT_NAME];
    if (want !== undefined) {
      assert.deepEqual(contextParams, want[0]);
      assert.equal(pkg.FILLS_GUIDANCE, want[1]);
    }
    assert.deepEqual(contextParams, required.map((l) => l.field));
    assert.equal(pkg.FILLS_GUIDANCE, guidance === undefined || guidance.optional !== true);
  });
  for (const leaf of required) {
    test(`${leaf.path} is a constructor parameter that must be a non-empty string`, () => {
      const kind = pkg.KNOWN_KINDS[0];
      const at = contextParams.indexOf(leaf.field);
      const args = (v) => contextArgs.map((a, i) => (i === at ? v : a));
      assert.equal(newEnv(kind, "m")[leaf.field], contextArgs[at]);
      assert.throws(() => pkg.newEnvelope(kind, "m", ...args("")), RangeError);
      assert.throws(() => pkg.newEnvelope(kind, "m", ...args(undefined)), TypeError);
      assert.throws(() => pkg.newEnvelope(kind, "m", ...args(42)), TypeError);
      assert.throws(() => pkg.newEnvelope(kind, "m"), TypeError);
      for (const [k, { fn, params }] of constructors()) {
        const call = (v) => fn("m", ...params.slice(1).map((p) => (p === leaf.field ? v : contextParams.includes(p) ? "op" : undefined)));
        assert.equal(call("x")[leaf.field], "x", k);
        assert.throws(() => call(""), RangeError, k);
      }
      const env = newEnv(kind, "m");
      assert.throws(() => pkg.withFields(env, { [leaf.field]: "" }), RangeError);
      assert.throws(() => pkg.withFields(env, { [leaf.field]: undefined }), TypeError);
      assert.equal(pkg.withFields(env, { [leaf.field]: "other" })[leaf.field], "other");
      // An envelope without it, or with it empty, is not serialized.
      const without = { ...env };
      delete without[leaf.field];
      assert.throws(() => pkg.toWire(without), RangeError);
      assert.throws(() => pkg.serializeEnvelope({ ...env, [leaf.field]: "" }), RangeError);
      assert.throws(() => pkg.toMcpToolResult(without), RangeError);
      // Both schemas require it; parsing without it is a missing error.
      const wire = pkg.toWire(env);
      const parent = leaf.path.split(".").slice(0, -1).reduce((o, k) => o[k], wire);
      delete parent[leaf.name];
      const r = pkg.parseEnvelope(wire);
      assert.equal(r.ok, false);
      assert.equal(r.error.path, leaf.path);
      assert.equal(r.error.category, "missing");
    });
  }
  test("new envelopes carry the contract's guidance only where the layout does not make it the producer's own", () => {
    for (const [k, { fn, params }] of constructors()) {
      const env = fn("m", ...params.slice(1).map((p) => (contextParams.includes(p) ? "op" : undefined)));
      assert.equal(env.recovery.guidance, pkg.FILLS_GUIDANCE ? pkg.lookup(k).guidance : "", k);
      if (guidance !== undefined && !pkg.FILLS_GUIDANCE) {
        const at = guidance.path.split(".");
        const valueAt = (w) => at.reduce((o, key) => (o === undefined ? undefined : o[key]), w);
        assert.equal(valueAt(pkg.toWire(env)), undefined, `${k}: guidance invented`);
        // A producer's own guidance is sent as given, and the decision does not depend on it.
        const advised = pkg.withFields(env, { guidance: pkg.lookup(k).guidance });
        assert.equal(valueAt(pkg.toWire(advised)), pkg.lookup(k).guidance, k);
        for (let attempt = 1; attempt <= pkg.RETRY.maxAttempts + 1; attempt++) {
          assert.deepEqual(pkg.nextStep(advised, attempt), pkg.nextStep(env, attempt));
        }
      }
    }
  });
});

describe(`${pkg.CONTRACT_NAME}: nextStep`, () => {
  const steps = new Set();
  for (const v of vectors.next_step) {
    for (const a of v.attempts) steps.add(a.step);
    test(`${v.name}, attempts ${v.attempts.map((a) => a.attempt).join(", ")}`, () => {
      assert.ok(v.attempts.length > 0, "no attempts");
      const env = parsed(v.envelope);
      for (const a of v.attempts) {
        const d = pkg.nextStep(env, a.attempt);
        assert.deepEqual(
          { ...d },
          { step: a.step, delayMinMs: a.delay_min_ms, delayMaxMs: a.delay_max_ms, checkStateFirst: a.check_state_first, exhausted: a.exhausted },
          `attempt ${a.attempt}`,
        );
      }
    });
  }
  test("the vectors cover every step the contract's actions map to, and escalation", () => {
    for (const a of pkg.RECOVERY_ACTIONS) {
      const s = pkg.ACTION_STEPS[a];
      if (s !== "retry") assert.ok(steps.has(s), `step ${s} (action ${a})`);
    }
    assert.ok(steps.has("escalate"));
    assert.equal(pkg.stepOf("action_nobody_defined"), "escalate");
  });
});

describe(`${pkg.CONTRACT_NAME}: inbound classification`, () => {
  const camel = (name) => name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join("");
  if (pkg.INBOUND === null) {
    test("no classifiers: no classify functions", () => {
      assert.equal(vectors.classify.length, 0);
      assert.equal(pkg.classify, undefined);
      assert.equal(pkg.classifyToolResult, undefined);
      assert.equal(vectors.tool_result, null);
    });
    return;
  }
  for (const v of vectors.classify) {
    test(`${v.classifier}: status ${v.status}, failure ${JSON.stringify(v.failure)}, text ${JSON.stringify(v.text)}`, () => {
      const u = { status: v.status, failure: v.failure, text: v.text };
      const fn = pkg[`classify${camel(v.classifier)}`];
      assert.equal(typeof fn, "function", `classify${camel(v.classifier)}`);
      assert.deepEqual({ ...fn(u) }, { kind: v.kind, countsTowardBreaker: v.breaker, rule: v.rule });
      if (v.classifier === pkg.INBOUND.classifiers[0].name) assert.deepEqual(pkg.classify(u), fn(u));
      // Absent members mean the same as zero values.
      const sparse = {};
      if (v.status !== 0) sparse.status = v.status;
      if (v.failure !== "") sparse.failure = v.failure;
      if (v.text !== "") sparse.text = v.text;
      assert.deepEqual(fn(sparse), fn(u));
    });
  }
  test("every classifier is checked on the redirects 301, 302, 307 and 308", () => {
    for (const c of pkg.INBOUND.classifiers) {
      for (const status of [301, 302, 307, 308]) {
        const v = vectors.classify.find((v) => v.classifier === c.name && v.status === status && v.failure === "" && v.text === "");
        assert.ok(v, `${c.name}: no vector for status ${status}`);
      }
    }
  });
  test("the tool result", () => {
    if (vectors.tool_result === null) {
      assert.equal(pkg.classifyToolResult, undefined);
      return;
    }
    assert.deepEqual({ ...pkg.classifyToolResult() }, { kind: vectors.tool_result.kind, countsTowardBreaker: vectors.tool_result.breaker, rule: 0 });
  });
  test("word matching folds ASCII only and treats non-word characters as boundaries", () => {
    assert.equal(pkg.asciiLower("ÄBC-Déf"), "Äbc-déf");
    assert.equal(pkg.hasWord("an oauth error", ["oauth"]), true);
    assert.equal(pkg.hasWord("oauth2 error", ["oauth"]), false);
    assert.equal(pkg.hasWord("x_oauth", ["oauth"]), false);
    assert.equal(pkg.hasWord("é-oauth-é", ["oauth"]), true);
    assert.equal(pkg.hasWord("oauthoauth oauth", ["oauth"]), true);
  });
});

describe(`${pkg.CONTRACT_NAME}: retry safety from tool annotations`, () => {
  for (const v of vectors.for_tool) {
    test(`${v.same_arguments}, read-only ${v.read_only}, idempotent ${v.idempotent}`, () => {
      const a = { readOnlyHint: v.read_only ?? undefined, idempotentHint: v.idempotent ?? undefined };
      assert.equal(pkg.forTool(v.same_arguments, a), v.result);
      const env = newEnv(pkg.KNOWN_KINDS[0], "m");
      env.recovery.sameArguments = v.same_arguments;
      const got = pkg.withToolAnnotations(env, a);
      assert.equal(got.recovery.sameArguments, v.result);
      assert.equal(env.recovery.sameArguments, v.same_arguments, "the input is not changed");
    });
  }
});

describe(`${pkg.CONTRACT_NAME}: HTTP responses`, () => {
  test("there are HTTP vectors", () => assert.ok(vectors.http.length > 0));
  for (const v of vectors.http) {
    test(v.name, async () => {
      const res = new Response(v.status === 204 || v.status === 304 ? null : v.body, { status: v.status, headers: v.headers });
      // A Response given a string adds a text/plain Content-Type of its own.
      if (!("content-type" in v.headers)) res.headers.delete("content-type");
      // A repeated header: fetch's Headers join the lines with ", ".
      for (const [name, value] of v.header_lines) res.headers.append(name, value);
      const r = await pkg.fromHttpResponse(res);
      if (v.envelope === null) {
        assert.equal(r.ok, false, "an error");
        assert.equal(r.error.category, v.error);
        return;
      }
      assert.ok(r.ok, r.ok ? "" : r.error.problem);
      r.envelope = callerSets(r.envelope, v.envelope);
      assert.deepEqual(pkg.toWire(r.envelope), v.envelope);
      const mark = v.envelope[pkg.PROMOTED_MEMBER] ?? "";
      assert.equal(pkg.promotedFrom(r.envelope), mark);
      // The mark survives serializing and parsing.
      const back = pkg.parseEnvelopeJson(pkg.serializeEnvelope(r.envelope));
      assert.ok(back.ok);
      assert.equal(pkg.promotedFrom(back.envelope), mark);
      if (mark !== "") assert.equal(r.classified, false, "a promoted short form is not classified from the status");
    });
  }
});

/**
 * callerSets fills in what a response cannot say but the layout requires in
 * every envelope (ovstorage's operation), as the caller of fromHttpResponse
 * does before passing the envelope on: from the vector's envelope.
 */
function callerSets(env, want, o = pkg.LAYOUT, at = want) {
  let out = env;
  for (const m of o.members) {
    if (m.object) {
      out = callerSets(out, want, m.object, at?.[m.object.name]);
    } else if (m.leaf.required === true && m.leaf.field !== undefined && (out[m.leaf.field] ?? "") === "") {
      out = { ...out, [m.leaf.field]: at?.[m.leaf.name] };
    }
  }
  return out;
}

/** goJSON is JSON.stringify escaping U+2028 and U+2029, as the Go encoder writes them. */
function goJSON(v) {
  return JSON.stringify(v).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function leaves(o = pkg.LAYOUT, out = []) {
  for (const m of o.members) {
    if (m.object) leaves(m.object, out);
    else out.push(m.leaf);
  }
  return out;
}

function onWire(source) {
  return leaves().some((l) => l.source === source);
}
