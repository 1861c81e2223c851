/** /backoffice/adjustments: the list, and /new, the request form (one row of the route table,
 * loaded lazily as a whole). */
import { useRoutes } from 'react-router';
import AdjustmentsPage from './AdjustmentsPage';
import NewAdjustmentPage from './NewAdjustmentPage';

export default function AdjustmentsScreen() {
  return useRoutes([
    { index: true, element: <AdjustmentsPage /> },
    { path: 'new', element: <NewAdjustmentPage /> },
  ]);
}
