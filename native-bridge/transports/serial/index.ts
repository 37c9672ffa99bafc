export { SerialTransport, SerialTransportError, type SerialOpenOptions, type SerialPortLike } from './serial-transport';
