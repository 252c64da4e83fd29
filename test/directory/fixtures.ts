/**
 * Records shaped like the live service's (spec section 2, REAL-WORLD.md): V1 timestamps with
 * milliseconds and a Pacific offset, full and empty image maps, redacted users.
 */

export const v1User = {
  id: 81533,
  created_at: '2014-07-30T08:12:44.117-07:00',
  name: 'Ada Lovelace',
  username: 'ada',
  headline: 'Analytical engines',
  twitter_username: null,
  website_url: '',
  profile_url: 'https://www.example-directory.test/@ada',
  image_url: {
    '30px': 'https://images.example.test/ada/30.png',
    '96px': 'https://images.example.test/ada/96.png',
    '32px@2X': 'https://images.example.test/ada/32@2x.png',
    original: 'https://images.example.test/ada/original.png',
  },
};

export const redactedV1User = {
  id: 0,
  created_at: '2016-01-01T00:00:00.000-08:00',
  name: '[REDACTED]',
  username: '[REDACTED]',
  headline: null,
  twitter_username: null,
  website_url: null,
  profile_url: '[REDACTED]',
  image_url: {},
};

export const v1Post = {
  id: 98114,
  name: 'Analytical Engine',
  tagline: 'Computes Bernoulli numbers',
  slug: 'analytical-engine',
  product_state: 'default',
  comments_count: 12,
  votes_count: 340,
  day: '2017-03-08',
  category_id: null,
  created_at: '2017-03-08T00:01:00.000-08:00',
  current_user: {},
  discussion_url: 'https://www.example-directory.test/posts/analytical-engine?utm_campaign=api',
  redirect_url: 'https://www.example-directory.test/r/1',
  exclusive: null,
  featured: true,
  ios_featured_at: false,
  maker_inside: true,
  makers: [v1User, { id: 'broken' }],
  platforms: [],
  topics: [],
  screenshot_url: {
    '300px': 'https://images.example.test/s300.png',
    '850px': 'https://images.example.test/s850.png',
  },
  thumbnail: { id: 5, media_type: 'image', image_url: 'https://images.example.test/thumb.png', metadata: {} },
  user: v1User,
};

export const v1Comment = {
  id: 402133,
  body: 'Congrats on the launch! <!channel>',
  created_at: '2017-03-09T00:29:11.627-08:00',
  parent_comment_id: null,
  user_id: 81533,
  subject_id: 98114,
  subject_type: 'Post',
  child_comments_count: 2,
  url: 'https://www.example-directory.test/posts/analytical-engine?comment=402133',
  post_id: 98114,
  sticky: false,
  votes: 3,
  post: v1Post,
  user: v1User,
  // Extra fields the spec does not list.
  maker: false,
  hunter: false,
  live_guest: false,
  child_comments: [{ id: 1 }],
};

export const v1Collection = {
  id: 3121,
  name: 'Engines',
  title: 'Every engine worth knowing',
  created_at: '2016-11-01T10:00:00.000-07:00',
  updated_at: '2017-02-01T10:00:00.000-08:00',
  featured_at: '2017-02-02T09:30:00.000-08:00',
  subscriber_count: 44,
  background_image_url: null,
  category_id: null,
  collection_url: 'https://www.example-directory.test/@ada/collections/engines?utm_source=api',
  color: 'blue',
  posts_count: 7,
  user: v1User,
};

export const v1LiveEvent = {
  id: 77,
  name: 'AMA with Ada',
  tagline: 'Ask anything',
  starts_at: '2017-03-10T10:00:00.000-08:00',
  ends_at: '2017-03-10T11:00:00.000-08:00',
  subscriber_count: 120,
  live_video: true,
  guests: [],
  twitter_username: null,
  category_id: null,
  background_image_url: null,
  schedule_image_url: 'https://images.example.test/live/77.png',
  url: 'https://www.example-directory.test/live/ama-with-ada',
};

export const v2PostNode = {
  id: '98114',
  name: 'Analytical Engine',
  tagline: 'Computes Bernoulli numbers',
  slug: 'analytical-engine',
  url: 'https://www.example-directory.test/posts/analytical-engine',
  votesCount: 340,
  commentsCount: 12,
  createdAt: '2017-03-08T08:01:00Z',
  featuredAt: null,
  thumbnail: { url: 'https://images.example.test/thumb.png' },
  user: {
    id: '0',
    name: '[REDACTED]',
    username: '[REDACTED]',
    headline: null,
    url: '[REDACTED]',
    profileImage: null,
  },
  topics: { edges: [{ node: { name: 'Developer Tools' } }, { node: { name: 'Maths' } }] },
  productLinks: [{ type: 'website', url: 'https://engine.example.test' }],
  reviewsCount: 0,
};
