import { TypeForm } from './TypeForm';

/** §2 /device/addtype */
export default function AddTypePage() {
  return <TypeForm mode="add" />;
}
