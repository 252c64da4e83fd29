import type {
  DirectoryCollection,
  DirectoryComment,
  DirectoryLiveEvent,
  DirectoryNotification,
  DirectoryPost,
  DirectoryUser,
  DirectoryUserProfile,
} from '../../src/directory/types.js';

/** Normalised records as the directory client returns them, realistic and hostile. */

export const ada: DirectoryUser = {
  id: '81533',
  name: 'Ada Lovelace',
  username: 'ada',
  headline: 'Analytical engines',
  profileUrl: 'https://www.example-directory.test/@ada',
  avatarUrl: 'https://images.example.test/ada/96.png',
  redacted: false,
};

export const redacted: DirectoryUser = { id: '0', name: 'someone', username: '', redacted: true };

export const post: DirectoryPost = {
  id: '98114',
  name: 'Analytical Engine',
  tagline: 'Computes Bernoulli numbers',
  slug: 'analytical-engine',
  url: 'https://www.example-directory.test/posts/analytical-engine',
  votesCount: 1340,
  commentsCount: 12,
  createdAt: '2017-03-08T08:01:00.000Z',
  day: '2017-03-08',
  thumbnailUrl: 'https://images.example.test/thumb.png',
  makers: [ada, redacted],
  topics: ['Developer Tools', 'Mathematics'],
  user: ada,
};

export const comment: DirectoryComment = {
  id: '402133',
  body: 'Congrats on the launch!',
  createdAt: '2017-03-09T08:29:11.627Z',
  url: 'https://www.example-directory.test/posts/analytical-engine?comment=402133',
  postId: '98114',
  post,
  user: ada,
  votes: 3,
  sticky: false,
  childCommentsCount: 2,
};

export const collection: DirectoryCollection = {
  id: '3121',
  name: 'Engines',
  title: 'Every engine worth knowing',
  createdAt: '2016-11-01T17:00:00.000Z',
  featuredAt: '2017-02-02T17:30:00.000Z',
  url: 'https://www.example-directory.test/@ada/collections/engines',
  color: 'blue',
  postsCount: 7,
  subscriberCount: 44,
  user: ada,
};

export const liveEvent: DirectoryLiveEvent = {
  id: '77',
  name: 'AMA with Ada',
  tagline: 'Ask anything',
  startsAt: '2017-03-10T18:00:00.000Z',
  endsAt: '2017-03-10T19:00:00.000Z',
  url: 'https://www.example-directory.test/live/ama-with-ada',
  liveVideo: true,
  subscriberCount: 120,
  imageUrl: 'https://images.example.test/live/77.png',
};

export const notification: DirectoryNotification = {
  id: '9',
  kind: 'Comment',
  text: 'Grace Hopper replied to your comment',
  createdAt: '2017-03-09T09:00:00.000Z',
  url: 'https://www.example-directory.test/posts/analytical-engine?comment=402200',
  referenceId: '402200',
  referenceType: 'Comment',
};

export const profile: DirectoryUserProfile = {
  ...ada,
  twitterUsername: 'ada_l',
  websiteUrl: 'https://ada.example.test',
  isMaker: true,
  createdAt: '2014-07-30T15:12:44.117Z',
  madePosts: [post],
  followedCollections: [collection],
};

export const HOSTILE = [
  '<!channel> look at this',
  '@everyone please upvote',
  'ping <@U123ABC> and <#C024BE91L>',
  'مرحبا بالعالم — تطبيق رائع',
  'mixed \u202Eevil\u202C direction',
  'Launch day 🚀🔥 👩‍💻 ❤️',
].join('\n');
