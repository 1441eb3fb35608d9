// Authored planning notes (§2.7) live as Markdown under content/knowledge/<group>/<note>.md. Each note is split at
// its headings into sections ("chunks"), each returned verbatim by the search; this file only reads and splits.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { slugify } from '../catalogue/slug.js';
import { packagePath } from '../config/paths.js';

export const KNOWLEDGE_DIR = packagePath('content', 'knowledge');

/** One searchable section of a note. */
export interface KnowledgeSection {
  /** "<note slug>" for the opening text, "<note slug>/<heading slug>" for a section: stable while the heading is. */
  slug: string;
  noteSlug: string;
  title: string;
  /** '' for the note's opening text. */
  heading: string;
  /** The authored Markdown of the section, verbatim (trimmed). */
  body: string;
  tags: string[];
  /** Order within the note, from 0. */
  position: number;
  /** YYYY-MM-DD the note was last revised. */
  updated: string;
}

export interface Frontmatter {
  attributes: Record<string, string>;
  body: string;
}

/** `---`-fenced `key: value` lines at the top of a file (the only frontmatter our content uses). */
export function parseFrontmatter(text: string, file: string): Frontmatter {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) throw new Error(`${file}: missing frontmatter`);
  const attributes: Record<string, string> = {};
  for (const line of match[1].split(/\r?\n/)) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) throw new Error(`${file}: bad frontmatter line "${line}"`);
    attributes[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { attributes, body: text.slice(match[0].length) };
}

export const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** Splits one note at its `##`/`###` headings; a section without text is dropped. */
export function splitNote(noteSlug: string, text: string): KnowledgeSection[] {
  const { attributes, body } = parseFrontmatter(text, noteSlug);
  const title = attributes.title;
  const updated = attributes.updated;
  if (!title) throw new Error(`${noteSlug}: frontmatter needs a title`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(updated ?? '')) throw new Error(`${noteSlug}: frontmatter needs updated: YYYY-MM-DD`);
  const tags = listOf(attributes.tags).map((t) => slugify(t));
  const parts: Array<{ heading: string; lines: string[] }> = [{ heading: '', lines: [] }];
  for (const line of body.split(/\r?\n/)) {
    const heading = /^#{2,3}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) parts.push({ heading: heading[1], lines: [] });
    else parts[parts.length - 1].lines.push(line);
  }
  const sections: KnowledgeSection[] = [];
  const used = new Set<string>();
  for (const part of parts) {
    const sectionBody = part.lines.join('\n').trim();
    if (!sectionBody) continue;
    const slug = part.heading ? `${noteSlug}/${slugify(part.heading)}` : noteSlug;
    if (used.has(slug)) throw new Error(`${noteSlug}: two sections would share the slug ${slug}`);
    used.add(slug);
    sections.push({ slug, noteSlug, title, heading: part.heading, body: sectionBody, tags, position: sections.length, updated });
  }
  return sections;
}

/** Every section of every note under `dir`, in path order (deterministic). */
export async function readKnowledgeSections(dir = KNOWLEDGE_DIR): Promise<KnowledgeSection[]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.md')).sort();
  const sections: KnowledgeSection[] = [];
  for (const file of files) {
    const noteSlug = relative(dir, join(dir, file)).split(sep).join('/').replace(/\.md$/, '');
    if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(noteSlug)) throw new Error(`${file}: note paths must be lowercase kebab-case`);
    sections.push(...splitNote(noteSlug, await readFile(join(dir, file), 'utf8')));
  }
  return sections;
}
