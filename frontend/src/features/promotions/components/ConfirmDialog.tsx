/** The shared yes/no dialog (components/ui/ConfirmDialog), where the promotions screens import it. */
export { ConfirmDialog } from '@/components/ui/ConfirmDialog';
