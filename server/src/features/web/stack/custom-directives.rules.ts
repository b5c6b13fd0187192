/**
 * What a virtual host's custom directives may not contain: anything that reaches outside the site
 * (other files, programs, modules, other hosts' names, logs, listeners, users). Checked before
 * Apache sees them; Apache's own check (`apache2 -t`) then proves the rest.
 */
const FORBIDDEN: [RegExp, string][] = [
  [/^include(optional)?\b/i, 'Include'],
  [/^loadmodule\b/i, 'LoadModule'],
  [/^loadfile\b/i, 'LoadFile'],
  [/^suexec\w*\b/i, 'Suexec'],
  [/^<\/?virtualhost\b/i, '<VirtualHost>'],
  [/^<\/?macro\b/i, '<Macro>'],
  [/^use\b/i, 'Use (macros)'],
  [
    /^(servername|serveralias)\b/i,
    'ServerName/ServerAlias (use the Domain, Server Name and Server Aliases fields)',
  ],
  [
    /^(documentroot|serverroot|defaultruntimedir)\b/i,
    'DocumentRoot/ServerRoot (use the Document Root field)',
  ],
  [/^(alias|aliasmatch|scriptalias|scriptaliasmatch)\b/i, 'Alias (it would serve files outside the site)'],
  [/^<\/?directory(match)?\b/i, '<Directory> (the site has one: its document root)'],
  [/^(errorlog|customlog|transferlog|globallog|forensiclog|cookielog|scriptlog)\b/i, 'a log file of its own'],
  [
    /^(listen|pidfile|mutex|user|group|chrootdir|coredumpdirectory|scoreboardfile)\b/i,
    'a server-wide directive',
  ],
  [/^(define|undefine)\b/i, 'Define'],
  [/^rewritemap\b/i, 'RewriteMap (it can run programs)'],
  [/^(extfilterdefine|action|scriptsock)\b/i, 'running programs'],
  [/^(ssl\w*)\b/i, 'SSL directives (use the SSL fields)'],
  [/^(sec\w*)\b/i, 'mod_security directives (use the Rate Limiting fields)'],
];

export interface DirectiveProblem {
  line: number;
  what: string;
}

/** Joins `\` continuation lines; each logical line keeps its first physical line number. */
function logicalLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let buf = '';
  let start = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (buf === '') start = i + 1;
    if (raw.endsWith('\\')) {
      buf += raw.slice(0, -1) + ' ';
      return;
    }
    out.push({ line: start, text: buf + raw });
    buf = '';
  });
  if (buf !== '') out.push({ line: start, text: buf });
  return out;
}

/** The first forbidden directive, or null. `${…}` (Apache's variables) and piped logs are refused too. */
export function forbiddenDirective(text: string): DirectiveProblem | null {
  for (const { line, text: l } of logicalLines(text)) {
    const t = l.trim();
    if (t === '' || t.startsWith('#')) continue;
    if (/\$\{/.test(t)) return { line, what: 'an Apache variable (${…})' };
    if (/(^|\s)"?\|/.test(t)) return { line, what: 'a piped program (|)' };
    for (const [re, what] of FORBIDDEN) if (re.test(t)) return { line, what };
  }
  return null;
}

/** Indents the directives for the rendered file (blank lines kept). */
export const indentDirectives = (text: string, pad = '  ') =>
  text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => (l.trim() === '' ? '' : pad + l.trimEnd()))
    .join('\n');
