/** The members screen's own routes: the search at /members, a member's page at /members/:id. */
import { useRoutes } from 'react-router';
import MemberPage from './MemberPage';
import MembersSearchPage from './MembersSearchPage';

export default function MembersScreen() {
  return useRoutes([
    { index: true, element: <MembersSearchPage /> },
    { path: ':memberId', element: <MemberPage /> },
  ]);
}
