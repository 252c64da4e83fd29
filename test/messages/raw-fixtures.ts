/** Raw records as the directory serves them (V1 snake_case with offsets, V2 camelCase), for the raw-record path. */

export const rawV1Comment = {
  id: 402133,
  body: 'Congrats on the launch! <!channel> @everyone <@U123ABC>',
  created_at: '2017-03-09T00:29:11.627-08:00',
  parent_comment_id: null,
  user_id: 0,
  subject_id: 98114,
  subject_type: 'Post',
  child_comments_count: 2,
  url: 'https://www.example-directory.test/posts/analytical-engine?comment=402133',
  post_id: 98114,
  votes: 3,
  user: {
    id: 0,
    name: '[REDACTED]',
    username: '[REDACTED]',
    profile_url: '[REDACTED]',
    image_url: {},
  },
  maker: false,
};

export const rawV1Collection = {
  id: 3121,
  name: 'Engines',
  title: 'Every engine worth knowing',
  created_at: '2016-11-01T10:00:00.000-07:00',
  featured_at: '2017-02-02T09:30:00.000-08:00',
  subscriber_count: 44,
  background_image_url: null,
  collection_url: 'https://www.example-directory.test/@ada/collections/engines',
  color: 'teal',
  posts_count: 7,
};

export const rawV1LiveEvent = {
  id: 77,
  name: 'AMA with Ada',
  tagline: 'Ask anything',
  starts_at: '2017-03-10T10:00:00.000-08:00',
  ends_at: null,
  subscriber_count: 120,
  live_video: true,
  url: 'https://www.example-directory.test/live/ama-with-ada',
};

export const rawV1Notification = {
  id: 15,
  created_at: '2026-11-21T02:51:27.824-08:00',
  reference_type: 'Post',
  reference_id: 69,
  sentence: 'Amara Hopper upvoted Tiny Canvas 69',
  seen: false,
  url: 'https://www.example-directory.test/notifications/15',
};

export const rawV2Post = {
  id: '98114',
  name: 'Analytical Engine',
  tagline: 'Computes Bernoulli numbers',
  url: 'https://www.example-directory.test/posts/analytical-engine',
  votesCount: 340,
  commentsCount: 12,
  createdAt: '2017-03-08T08:01:00Z',
  featuredAt: null,
  thumbnail: { url: 'https://images.example.test/thumb.png' },
  user: { id: '0', name: '[REDACTED]', username: '[REDACTED]', url: '[REDACTED]', profileImage: null },
  makers: [],
  topics: { edges: [{ node: { name: 'Developer Tools' } }] },
};
