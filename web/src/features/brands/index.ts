/**
 * The brands feature's public face (the member's own brands and any brand's public
 * view): what other features may use. Everything else here is internal.
 */
export {
  getBrandOptions,
  SOCIAL_LABELS,
  SOCIAL_NETWORKS,
  updatePublicBrand,
  useBrandOptions,
  usePublicBrand,
  type Audience,
  type BrandOptions,
  type BrandProfile,
  type BrandRelation,
  type Contact,
  type Country,
  type Fit,
  type MatchInfo,
  type PublicBrand,
  type PublicBrandView,
  type SocialLinks,
  type SocialNetwork,
} from './api/brands';
export { brandKeys } from './api/keys';
export { BrandLogo } from './components/BrandLogo';
export { brandFromPath, userBrandInPath, usePathBrand, type PathBrand } from './hooks/use-path-brand';
