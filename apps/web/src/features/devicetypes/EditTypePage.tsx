import { TypeForm } from './TypeForm';

/** §2 /device/edittype?id= */
export default function EditTypePage() {
  return <TypeForm mode="edit" />;
}
