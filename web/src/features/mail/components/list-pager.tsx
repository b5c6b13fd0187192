/** Moved to the shared components (the data table pages with it). */
export { ListPager, type ListPagerProps } from '../../../components/list-pager.tsx';
