/**
 * A look at a data file's raw text before any parser sees it (issue 31, 3): how deeply its
 * collections nest and how many aliases it uses. The yaml package recurses once per level and
 * has no depth option (100,000 `[` exhaust its stack or the heap; JSON.parse builds as many
 * arrays), so the bound has to hold before parsing. One pass, no allocation per character.
 *
 * The count errs on the deep side, never the shallow one: text the scan cannot place (a plain
 * scalar that looks like a key, a bracket inside one) counts as the structure it resembles, and
 * text it skips (quoted scalars, block scalars, comments) is text the parser skips too. A quote
 * opens a quoted scalar only where a node starts, as in YAML (`don't` is plain), so a quote
 * cannot hide brackets the parser will read. Exact for JSON and for flow collections; for block
 * collections one level per indentation step, a sequence beside its key's indentation, and each
 * compact entry (`- - x`, `- key: v`).
 */

export interface PrescanLimits {
  /** Collections inside one another, the outermost counted (the parsed check's `depth`). */
  depth: number;
  aliases: number;
}

/** `unindented`: a flow collection goes on at a line its parent's indentation (an error of YAML's, read two ways). */
export type PrescanProblem = { kind: 'depth' | 'aliases' | 'unindented'; line: number };

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

const isBlank = (c: number) => c === SPACE || c === TAB;
const isBreak = (c: number) => c === LF || c === CR || Number.isNaN(c);

/** JSON: brackets outside strings; strings end at an unescaped quote. */
function scanJson(text: string, limits: PrescanLimits): PrescanProblem | undefined {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) line++;
    else if (c === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
        else if (s === LF) line++;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limits.depth) return { kind: 'depth', line };
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth = Math.max(0, depth - 1);
  }
  return undefined;
}

interface Block {
  indent: number;
  kind: 'map' | 'seq';
}

const FLOW_INDICATOR = new Set([0x5b, 0x5d, 0x7b, 0x7d, 0x2c]); // [ ] { } ,

function scanYaml(text: string, limits: PrescanLimits): PrescanProblem | undefined {
  const n = text.length;
  const stack: Block[] = [];
  let line = 1;
  let aliases = 0;
  let i = 0;
  /** Lines more indented than this are a block scalar's text (none when undefined). */
  let blockScalarAbove: number | undefined;

  const at = (k: number) => (k < n ? text.charCodeAt(k) : NaN);
  const toLineEnd = () => {
    while (i < n && !isBreak(at(i))) i++;
  };
  const isDocumentMarker = (k: number) =>
    (text.startsWith('---', k) || text.startsWith('...', k)) && (isBlank(at(k + 3)) || isBreak(at(k + 3)));
  /**
   * Past a quoted scalar that closes on its own line; false (i unchanged) when it does not: the
   * yaml package may end a quoted scalar early at a line indented less than it wants, and read
   * what follows as structure, so the scan reads on as if it were plain text.
   */
  const skipQuoted = (): boolean => {
    const quote = at(i);
    for (let k = i + 1; k < n; k++) {
      const c = at(k);
      if (isBreak(c)) return false;
      if (quote === 0x22 && c === 0x5c /* \ */) {
        if (isBreak(at(k + 1))) return false; // an escaped line break: the scalar goes on to the next line
        k++;
      } else if (c === quote) {
        if (quote === 0x27 && at(k + 1) === 0x27)
          k++; // '' inside '…'
        else {
          i = k + 1;
          return true;
        }
      }
    }
    return false;
  };
  /** Past an anchor, tag or alias name: it ends where a flow collection could start. */
  const skipName = () => {
    i++;
    while (i < n && !isBlank(at(i)) && !isBreak(at(i)) && !FLOW_INDICATOR.has(at(i))) i++;
  };
  /** The first character at or after k that is not a space or a tab (a line's content, a comment or its end). */
  const firstNonBlank = (k: number) => {
    while (isBlank(at(k))) k++;
    return at(k);
  };
  const tooDeep = (flow: number) => stack.length + flow > limits.depth;
  const alias = (): PrescanProblem | undefined => (++aliases > limits.aliases ? { kind: 'aliases', line } : undefined);

  /**
   * A flow collection from its opening bracket at i to its end, over lines if need be. A line
   * inside it indented no more than its block parent (other than one starting with the closing
   * bracket) is an error to the yaml package, which then reads that line as block structure:
   * refused here, where the two readings would differ.
   */
  const scanFlow = (): PrescanProblem | 'unindented' | undefined => {
    const parentIndent = stack.at(-1)?.indent ?? -1;
    let flow = 0;
    let nodeStart = true;
    for (; i < n; i++) {
      const c = at(i);
      if (c === LF) {
        line++;
        let k = i + 1;
        while (at(k) === SPACE) k++;
        const next = at(k);
        const first = firstNonBlank(k);
        const blankLine = isBreak(first) || first === 0x23;
        if (!blankLine && (isDocumentMarker(i + 1) || (k - i - 1 <= parentIndent && next !== 0x5d && next !== 0x7d)))
          return 'unindented';
        continue;
      }
      if (isBlank(c) || c === CR) continue;
      if (c === 0x23 /* # */ && (isBlank(at(i - 1)) || isBreak(at(i - 1)))) {
        toLineEnd();
        i--;
        continue;
      }
      if (c === 0x5b || c === 0x7b) {
        flow++;
        if (tooDeep(flow)) return { kind: 'depth', line };
        nodeStart = true;
      } else if (c === 0x5d || c === 0x7d) {
        flow--;
        nodeStart = false;
        if (flow <= 0) {
          i++;
          return undefined;
        }
      } else if (c === 0x2c /* , */) {
        nodeStart = true;
      } else if (c === 0x3a /* : */ || c === 0x3f /* ? */) {
        // An indicator before a blank, or `:` right after a quoted or bracketed key (JSON-like); else plain text.
        const prev = at(i - 1);
        nodeStart =
          isBlank(at(i + 1)) ||
          isBreak(at(i + 1)) ||
          (c === 0x3a && (prev === 0x22 || prev === 0x27 || prev === 0x5d || prev === 0x7d));
      } else if (nodeStart && (c === 0x22 || c === 0x27)) {
        if (skipQuoted()) i--;
        nodeStart = false;
      } else if (nodeStart && c === 0x2a /* * */) {
        const problem = alias();
        if (problem) return problem;
        skipName();
        i--;
        nodeStart = false;
      } else if (nodeStart && (c === 0x26 /* & */ || c === 0x21) /* ! */) {
        skipName(); // an anchor or a tag: the node itself still comes
        i--;
      } else nodeStart = false;
    }
    return undefined;
  };

  while (i < n) {
    // A line's start: its indentation.
    const lineStart = i;
    while (at(i) === SPACE) i++;
    const indent = i - lineStart;
    const first = firstNonBlank(i);
    const empty = isBreak(first) || first === 0x23;
    let skipped = false;
    if (indent === 0 && isDocumentMarker(i)) {
      stack.length = 0; // a new document
      blockScalarAbove = undefined;
      i += 3;
    } else if (empty || (blockScalarAbove !== undefined && indent > blockScalarAbove)) {
      toLineEnd();
      skipped = true;
    } else blockScalarAbove = undefined;
    while (!skipped && stack.length > 0 && stack.at(-1)!.indent > indent) stack.pop();
    let firstToken = true;
    // The nodes of this line, one after another (`- - key: [` …).
    while (!skipped) {
      while (isBlank(at(i))) i++;
      const c = at(i);
      const col = i - lineStart;
      if (isBreak(c) || c === 0x23) break;
      const next = at(i + 1);
      const indicator = isBlank(next) || isBreak(next);
      if ((c === 0x2d /* - */ || c === 0x3f) /* ? */ && indicator) {
        const kind = c === 0x2d ? 'seq' : 'map';
        const top = stack.at(-1);
        if (!(firstToken && top && top.indent === col && top.kind === kind)) stack.push({ indent: col, kind });
        if (tooDeep(0)) return { kind: 'depth', line };
        i++;
        firstToken = false;
        continue;
      }
      if (c === 0x3a /* : */ && indicator) {
        i++; // an explicit key's value
        firstToken = false;
        continue;
      }
      if (c === 0x26 || c === 0x21) {
        skipName();
        continue;
      }
      if (c === 0x7c /* | */ || c === 0x3e /* > */) {
        // The lines below more indented than the node it belongs to are its text. Anything
        // after the header on this line is scanned on (a comment, or an error of the file's).
        blockScalarAbove = Math.max(stack.at(-1)?.indent ?? -1, indent);
        i++;
        while (/[0-9+-]/.test(text[i] ?? '')) i++;
        firstToken = false;
        continue;
      }
      if (c === 0x5b || c === 0x7b) {
        const problem = scanFlow();
        if (problem === 'unindented') {
          return { kind: 'unindented', line };
        }
        if (problem) return problem;
        firstToken = false;
        continue; // `[a]: b`, a comment
      }
      if (c === 0x2a) {
        const problem = alias();
        if (problem) return problem;
        skipName();
        firstToken = false;
        continue;
      }
      // A scalar: quoted, or plain up to ` #`, `: ` or the line's end. Followed by `:` it was a key.
      if (!((c === 0x22 || c === 0x27) && skipQuoted())) {
        while (i < n && !isBreak(at(i))) {
          const p = at(i);
          if (p === 0x23 && isBlank(at(i - 1))) break;
          if (p === 0x3a && (isBlank(at(i + 1)) || isBreak(at(i + 1)))) break;
          i++;
        }
      }
      while (isBlank(at(i))) i++;
      if (at(i) === 0x3a && (isBlank(at(i + 1)) || isBreak(at(i + 1)))) {
        const top = stack.at(-1);
        if (firstToken && top && top.indent === col && top.kind === 'seq') stack.pop(); // a key after the sequence beside it
        const outer = stack.at(-1);
        if (!(outer && outer.indent === col && outer.kind === 'map')) stack.push({ indent: col, kind: 'map' });
        if (tooDeep(0)) return { kind: 'depth', line };
        i++;
      }
      firstToken = false;
    }
    // The line's end.
    if (at(i) === CR) i++;
    if (at(i) === LF) {
      i++;
      line++;
    }
  }
  return undefined;
}

/** The first bound the text crosses, with the line where it does; undefined when none. */
export function prescanData(text: string, json: boolean, limits: PrescanLimits): PrescanProblem | undefined {
  return json ? scanJson(text, limits) : scanYaml(text, limits);
}
