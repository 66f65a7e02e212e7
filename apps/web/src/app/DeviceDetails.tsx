import AlarmInfoPage from '../features/alarms/AlarmInfoPage';
import DeviceDetailsPage from '../features/devices/details/DeviceDetailsPage';

/**
 * /project/info: the device feature's details page with the alarm feature's table in its Alarms
 * tab. Features never import each other; the app puts the two together.
 */
export default function DeviceDetails() {
  return <DeviceDetailsPage alarms={(deviceId) => <AlarmInfoPage key={deviceId} deviceId={deviceId} />} />;
}
