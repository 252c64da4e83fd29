/**
 * The V2 schema the emulator serves: the types of the live service's 2025 reference that
 * the emulator implements (posts, post, collections, collection, comment, user, topics,
 * topic, viewer), with their documented fields and arguments. A subset, never an
 * extension, so a query that works here works against the live service. Default argument
 * values are only declared where the reference documents them.
 */
export const V2_SCHEMA_SDL = /* GraphQL */ `
"""An ISO-8601 encoded UTC date string."""
scalar DateTime

enum PostsOrder { FEATURED_AT NEWEST RANKING VOTES }
enum CollectionsOrder { FEATURED_AT FOLLOWERS_COUNT NEWEST }
enum CommentsOrder { NEWEST VOTES_COUNT }
enum TopicsOrder { FOLLOWERS_COUNT NEWEST }

interface TopicableInterface { id: ID! }
interface VotableInterface { id: ID! isVoted: Boolean! votesCount: Int! }

type PageInfo { endCursor: String hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String }

type Media { type: String! url(height: Int, width: Int): String! videoUrl: String }
type ProductLink { type: String! url: String! }

type Post implements TopicableInterface & VotableInterface {
  collections(after: String, before: String, first: Int, last: Int): CollectionConnection!
  comments(after: String, before: String, first: Int, last: Int, order: CommentsOrder = NEWEST): CommentConnection!
  topics(after: String, before: String, first: Int, last: Int): TopicConnection!
  commentsCount: Int!
  createdAt: DateTime!
  description: String
  featuredAt: DateTime
  id: ID!
  isCollected: Boolean!
  isVoted: Boolean!
  makers: [User!]!
  media: [Media!]!
  name: String!
  productLinks: [ProductLink!]!
  reviewsCount: Int!
  reviewsRating: Float!
  slug: String!
  tagline: String!
  thumbnail: Media
  url: String!
  user: User!
  userId: ID!
  votesCount: Int!
  website: String!
}
type PostEdge { cursor: String! node: Post! }
type PostConnection { edges: [PostEdge!]! nodes: [Post!]! pageInfo: PageInfo! totalCount: Int! }

type Collection implements TopicableInterface {
  posts(after: String, before: String, first: Int, last: Int): PostConnection!
  topics(after: String, before: String, first: Int, last: Int): TopicConnection!
  coverImage: String
  createdAt: DateTime!
  description: String
  featuredAt: DateTime
  followersCount: Int!
  id: ID!
  isFollowing: Boolean!
  name: String!
  tagline: String!
  url: String!
  user: User!
  userId: ID!
}
type CollectionEdge { cursor: String! node: Collection! }
type CollectionConnection { edges: [CollectionEdge!]! nodes: [Collection!]! pageInfo: PageInfo! totalCount: Int! }

type Comment implements VotableInterface {
  replies(after: String, before: String, first: Int, last: Int, order: CommentsOrder = NEWEST): CommentConnection!
  body: String!
  createdAt: DateTime!
  id: ID!
  isVoted: Boolean!
  parent: Comment
  parentId: ID
  url: String!
  user: User!
  userId: ID!
  votesCount: Int!
}
type CommentEdge { cursor: String! node: Comment! }
type CommentConnection { edges: [CommentEdge!]! nodes: [Comment!]! pageInfo: PageInfo! totalCount: Int! }

type Topic {
  createdAt: DateTime!
  description: String!
  followersCount: Int!
  id: ID!
  image(height: Int, width: Int): String
  isFollowing: Boolean!
  name: String!
  postsCount: Int!
  slug: String!
  url: String!
}
type TopicEdge { cursor: String! node: Topic! }
type TopicConnection { edges: [TopicEdge!]! nodes: [Topic!]! pageInfo: PageInfo! totalCount: Int! }

type User {
  followedCollections(after: String, before: String, first: Int, last: Int): CollectionConnection!
  followers(after: String, before: String, first: Int, last: Int): UserConnection!
  following(after: String, before: String, first: Int, last: Int): UserConnection!
  madePosts(after: String, before: String, first: Int, last: Int): PostConnection!
  submittedPosts(after: String, before: String, first: Int, last: Int): PostConnection!
  coverImage(height: Int, width: Int): String
  createdAt: DateTime!
  headline: String
  id: ID!
  isFollowing: Boolean
  isMaker: Boolean!
  isViewer: Boolean!
  name: String!
  profileImage(size: Int): String
  twitterUsername: String
  url: String!
  username: String!
  websiteUrl: String
}
type UserEdge { cursor: String! node: User! }
type UserConnection { edges: [UserEdge!]! nodes: [User!]! pageInfo: PageInfo! totalCount: Int! }

type Viewer { user: User! }

type Query {
  collection(id: ID, slug: String): Collection
  collections(after: String, before: String, featured: Boolean, first: Int, last: Int, order: CollectionsOrder, postId: ID, userId: ID): CollectionConnection!
  comment(id: ID!): Comment
  post(id: ID, slug: String): Post
  posts(after: String, before: String, featured: Boolean, first: Int, last: Int, order: PostsOrder, postedAfter: DateTime, postedBefore: DateTime, topic: String, twitterUrl: String, url: String): PostConnection!
  topic(id: ID, slug: String): Topic
  topics(after: String, before: String, first: Int, followedByUserid: ID, last: Int, order: TopicsOrder, query: String): TopicConnection!
  user(id: ID, username: String): User
  viewer: Viewer
}
`;
