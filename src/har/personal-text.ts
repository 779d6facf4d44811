/**
 * A player's email and birthday found in any text by their look, not by where a parser would put
 * them: a reply cut short, prefixed, in XML with CDATA or attributes, with the field spelled
 * `Email` or `e_mail`, or a header, holds them as plainly as a clean JSON reply does.
 * - An email: an address shape around an `@` (or `%40`, `&#64;`), whatever surrounds it.
 * - A birthday: a date just after a birthday-like name (`birthday`, `date_of_birth`, `dob`,
 *   `bday`), across what separates a name from its value in JSON, XML (a tag's attributes, CDATA),
 *   a form or a header.
 */

export type PersonalKind = 'email' | 'birthday';

/** A field name's kind, whatever its spelling: `Email`, `e_mail`, `E-Mail`, `birthDate`, `date_of_birth`. */
export function personalKind(name: string): PersonalKind | undefined {
  const local = name.slice(name.lastIndexOf(':') + 1);
  const n = local.toLowerCase().replace(/[^a-z]/g, '');
  if (n === 'email' || n === 'emailaddress' || n === 'mail') return 'email';
  if (n.includes('birth') || n === 'dob' || n === 'bday') return 'birthday';
  return undefined;
}

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const DOMAIN = /^[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+/;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 255;
/** An at-sign as text carries it: itself, percent-encoded, or an HTML/XML character reference. */
const AT = /@|%40|&#0{0,4}64;|&#x0{0,4}40;/gi;

/**
 * Every email address in `text` replaced by `replace(address)` (the address with a plain `@`); the
 * replacement's `@` is spelled as the text spelled it.
 */
export function replaceEmails(text: string, replace: (address: string) => string): string {
  if (!/@|%40|&#/.test(text)) return text;
  let out = '';
  let copied = 0;
  AT.lastIndex = 0;
  for (let at = AT.exec(text); at !== null; at = AT.exec(text)) {
    let start = at.index;
    while (start > copied && at.index - start < MAX_LOCAL && LOCAL_CHAR.test(text[start - 1]!)) start--;
    const after = at.index + at[0].length;
    const domain = DOMAIN.exec(text.slice(after, after + MAX_DOMAIN));
    if (start === at.index || !domain) continue;
    out += text.slice(copied, start) + replace(`${text.slice(start, at.index)}@${domain[0]}`).replace('@', () => at[0]);
    copied = after + domain[0].length;
    AT.lastIndex = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A birthday-like name, as a word (`_`, `-` and case aside). */
const BIRTHDAY_NAME = /(?<![A-Za-z0-9])(?:[A-Za-z_-]{0,32}birth[A-Za-z_-]{0,32}|dob|bday)(?![A-Za-z0-9])/gi;
/** A date, whole or cut short: a month by name, or digits and separators (the longest first). */
const DATE = String.raw`[A-Za-z]{3,9}\.? \d{1,2},? \d{4}|\d{1,2}\.? [A-Za-z]{3,9}\.? \d{4}|\d[\d./-]{0,15}|[A-Za-z]{3,9}\.? \d{1,2}`;
/**
 * From the end of such a name in text to its date: JSON's `": "`, a form's or an attribute's `="`,
 * a header's `: `, a page's tags between a label and its value (`Birthday:</td><td>`).
 */
const NEXT_DATE = new RegExp(
  String.raw`(?:[\s"'\\:=]|<\/?[A-Za-z][\w.:-]{0,64}(?:\s[^<>]{0,256})?\/?>){0,16}(${DATE})`,
  'y',
);
/** In an XML tag: the rest of the tag (its attributes, then `>`), then a CDATA's opening. */
const NEXT_ELEMENT_DATE = new RegExp(String.raw`(?:\s[^<>]{0,256})?>\s*(?:<!\[CDATA\[\s*)?(${DATE})`, 'y');
const IN_TAG = /<(?:[A-Za-z_][\w.-]{0,64}:)?$/;

/** Every date next to a birthday-like name in `text` replaced by `replace(date)`. */
export function replaceBirthdays(text: string, replace: (date: string) => string): string {
  if (!/birth|dob|bday/i.test(text)) return text;
  let out = '';
  let copied = 0;
  BIRTHDAY_NAME.lastIndex = 0;
  for (let m = BIRTHDAY_NAME.exec(text); m !== null; m = BIRTHDAY_NAME.exec(text)) {
    const end = m.index + m[0].length;
    const next = IN_TAG.test(text.slice(Math.max(0, m.index - 70), m.index)) ? NEXT_ELEMENT_DATE : NEXT_DATE;
    next.lastIndex = end;
    const found = next.exec(text);
    const date = found ? { index: next.lastIndex - found[1]!.length, text: found[1]! } : undefined;
    if (!date) continue;
    out += text.slice(copied, date.index) + replace(date.text);
    copied = date.index + date.text.length;
    BIRTHDAY_NAME.lastIndex = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
