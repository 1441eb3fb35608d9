// Keeps the blog tables equal to content/blog: authors and tags upserted, a post rewritten only when its file
// changed (contentHash), posts whose file is gone deleted, then tags no post uses removed.
import type { PrismaClient } from '../generated/prisma/client.js';
import { randomFor } from '../db/seed/random.js';
import { readBlogContent } from './blog.content.js';

export async function syncBlog(prisma: PrismaClient): Promise<{ posts: number; written: number; deleted: number }> {
  const { authors, posts } = await readBlogContent();
  const existing = new Map((await prisma.blogPost.findMany({ select: { slug: true, contentHash: true } })).map((p) => [p.slug, p.contentHash]));
  const changed = posts.filter((p) => existing.get(p.slug) !== p.contentHash);
  const gone = [...existing.keys()].filter((slug) => !posts.some((p) => p.slug === slug));
  if (!changed.length && !gone.length) return { posts: posts.length, written: 0, deleted: 0 };
  await prisma.$transaction(
    async (tx) => {
      for (const a of authors) {
        await tx.blogAuthor.upsert({
          where: { slug: a.slug },
          create: { slug: a.slug, name: a.name, bio: a.bio ?? null },
          update: { name: a.name, bio: a.bio ?? null },
        });
      }
      const tags = new Map(changed.flatMap((p) => p.tags).map((t) => [t.slug, t.name]));
      for (const [slug, name] of tags) await tx.blogTag.upsert({ where: { slug }, create: { slug, name }, update: { name } });
      if (gone.length) await tx.blogPost.deleteMany({ where: { slug: { in: gone } } });
      for (const { tags: postTags, ...post } of changed) {
        // Ids are derived from the slug, so every machine and every rewrite gives a post the same id.
        const data = { ...post };
        const saved = await tx.blogPost.upsert({
          where: { slug: post.slug },
          create: { id: randomFor('blog-post', post.slug).uuid(), ...data },
          update: data,
        });
        await tx.blogPostTag.deleteMany({ where: { postId: saved.id } });
        await tx.blogPostTag.createMany({ data: postTags.map((t, position) => ({ postId: saved.id, tagSlug: t.slug, position })) });
      }
      await tx.blogTag.deleteMany({ where: { posts: { none: {} } } });
    },
    { maxWait: 60_000, timeout: 120_000 },
  );
  return { posts: posts.length, written: changed.length, deleted: gone.length };
}
