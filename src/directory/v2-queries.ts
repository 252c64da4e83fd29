/**
 * The GraphQL documents the client sends, valid against the 2025 V2 reference
 * (`reference/v2/reference-2025.txt`). Each list selects `edges { node }` (the form the spec
 * shows) and `pageInfo`. Fields are kept to what the bot renders, because every field costs
 * complexity and a `posts(first: 20)` page multiplies the node's cost by 20.
 */

const USER_FIELDS = 'id name username headline url profileImage';

const POST_FIELDS = `id name tagline slug url votesCount commentsCount createdAt featuredAt
  thumbnail { url }
  user { ${USER_FIELDS} }
  topics(first: 3) { edges { node { name } } }`;

const POST_DETAIL_FIELDS = `${POST_FIELDS}
  makers { ${USER_FIELDS} }`;

const COLLECTION_FIELDS = `id name tagline createdAt featuredAt url followersCount coverImage
  user { ${USER_FIELDS} }`;

const COMMENT_FIELDS = `id body createdAt parentId url votesCount
  user { ${USER_FIELDS} }`;

const TOPIC_FIELDS = 'id name slug description url followersCount postsCount image createdAt';

const PAGE_INFO = 'pageInfo { endCursor hasNextPage }';

export const POSTS_QUERY = `query Posts($first: Int!, $after: String, $order: PostsOrder, $featured: Boolean,
  $postedAfter: DateTime, $postedBefore: DateTime, $topic: String) {
  posts(first: $first, after: $after, order: $order, featured: $featured,
    postedAfter: $postedAfter, postedBefore: $postedBefore, topic: $topic) {
    edges { node { ${POST_FIELDS} } }
    ${PAGE_INFO}
  }
}`;

/**
 * A day's ranking as ids only: where each post stands costs 61 points for the top 20, a fifth
 * of one posts-feed page. No `pageInfo`: the first page is all it reads. `postedAfter` is
 * exclusive.
 */
export const RANKED_POST_IDS_QUERY = `query RankedPostIds($first: Int!, $postedAfter: DateTime!) {
  posts(first: $first, order: RANKING, postedAfter: $postedAfter) { edges { node { id } } }
}`;

export const POST_QUERY = `query Post($id: ID, $slug: String) {
  post(id: $id, slug: $slug) { ${POST_DETAIL_FIELDS} }
}`;

export const COLLECTIONS_QUERY = `query Collections($first: Int!, $after: String, $order: CollectionsOrder,
  $featured: Boolean, $userId: ID, $postId: ID) {
  collections(first: $first, after: $after, order: $order, featured: $featured, userId: $userId, postId: $postId) {
    edges { node { ${COLLECTION_FIELDS} } }
    ${PAGE_INFO}
  }
}`;

export const COLLECTION_QUERY = `query Collection($id: ID, $slug: String) {
  collection(id: $id, slug: $slug) { ${COLLECTION_FIELDS} }
}`;

export const COMMENT_QUERY = `query Comment($id: ID!) {
  comment(id: $id) { ${COMMENT_FIELDS} }
}`;

export const USER_QUERY = `query User($id: ID, $username: String, $first: Int!) {
  user(id: $id, username: $username) {
    ${USER_FIELDS} twitterUsername websiteUrl isMaker createdAt
    madePosts(first: $first) { edges { node { id name tagline slug url votesCount commentsCount createdAt featuredAt } } }
    followedCollections(first: $first) { edges { node { id name tagline url featuredAt followersCount } } }
  }
}`;

export const TOPICS_QUERY = `query Topics($first: Int!, $after: String, $order: TopicsOrder, $query: String) {
  topics(first: $first, after: $after, order: $order, query: $query) {
    edges { node { ${TOPIC_FIELDS} } }
    ${PAGE_INFO}
  }
}`;
