import type { DirectoryPost, DirectoryUser } from '../directory/index.js';
import type { FeedRecord, ItemFacets } from './feed-item.js';

function usernames(...users: (DirectoryUser | undefined)[]): string[] {
  return users.filter((u): u is DirectoryUser => !!u && !u.redacted).map((u) => u.username.toLowerCase());
}

function postRefs(post: DirectoryPost | undefined, postId?: string): string[] {
  return [post?.id, post?.slug, postId].filter((v): v is string => !!v).map((v) => v.toLowerCase());
}

const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join('\n').toLowerCase();

/** Computes what subscription filters look at, once per item. */
export function facetsOf(record: FeedRecord): ItemFacets {
  switch (record.type) {
    case 'post': {
      const { post } = record;
      return {
        text: join(post.name, post.tagline, ...post.topics),
        usernames: usernames(post.user, ...post.makers),
        postRefs: postRefs(post),
        ...(post.votesCount !== undefined ? { votes: post.votesCount } : {}),
      };
    }
    case 'comment': {
      const { comment } = record;
      return {
        text: join(comment.body, comment.post?.name),
        usernames: usernames(comment.user),
        postRefs: postRefs(comment.post, comment.postId),
      };
    }
    case 'collection': {
      const { collection } = record;
      return {
        text: join(collection.name, collection.title),
        usernames: usernames(collection.user),
        postRefs: [],
      };
    }
    case 'live': {
      const { event } = record;
      return {
        text: join(event.name, event.tagline),
        usernames: [],
        postRefs: [],
        liveVideo: event.liveVideo,
      };
    }
    case 'notification': {
      const { notification } = record;
      return {
        text: join(notification.text, notification.kind),
        usernames: usernames(notification.user),
        postRefs: [],
      };
    }
  }
}
