package io.kestrel.rpc.demo.bid;

/** The kind of device a bid request comes from. */
public enum DeviceType {
    MOBILE,
    DESKTOP,
    TABLET,
    CONNECTED_TV,
    SET_TOP_BOX
}
