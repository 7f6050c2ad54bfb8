/**
 * Likes, views and follows between members and pieces.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { getArtLikeStatus, likeArt, registerArtView, unlikeArt } from './art-likes-views.ts';
export {
  follow,
  followStatus,
  followersOf,
  likeUser,
  likesOfUser,
  listFollowing,
  memberByToken,
  unfollow,
  unlikeUser,
  userLikeStatus,
} from './user-social.ts';
