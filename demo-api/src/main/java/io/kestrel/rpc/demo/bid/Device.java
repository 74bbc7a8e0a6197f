package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.Objects;

/** The device an ad would be shown on. Mutable bean. */
public class Device implements Serializable {
    private static final long serialVersionUID = 1L;

    private String userAgent;
    private String ip;
    private Geo geo;
    private DeviceType type;
    private String make;
    private String model;
    private String os;
    private String osVersion;
    private String language;
    private int screenWidth;
    private int screenHeight;
    private boolean doNotTrack;
    /** Advertising id; null when the user opted out. */
    private String advertisingId;

    public Device() {
    }

    public String getUserAgent() {
        return userAgent;
    }

    public void setUserAgent(String userAgent) {
        this.userAgent = userAgent;
    }

    public String getIp() {
        return ip;
    }

    public void setIp(String ip) {
        this.ip = ip;
    }

    public Geo getGeo() {
        return geo;
    }

    public void setGeo(Geo geo) {
        this.geo = geo;
    }

    public DeviceType getType() {
        return type;
    }

    public void setType(DeviceType type) {
        this.type = type;
    }

    public String getMake() {
        return make;
    }

    public void setMake(String make) {
        this.make = make;
    }

    public String getModel() {
        return model;
    }

    public void setModel(String model) {
        this.model = model;
    }

    public String getOs() {
        return os;
    }

    public void setOs(String os) {
        this.os = os;
    }

    public String getOsVersion() {
        return osVersion;
    }

    public void setOsVersion(String osVersion) {
        this.osVersion = osVersion;
    }

    public String getLanguage() {
        return language;
    }

    public void setLanguage(String language) {
        this.language = language;
    }

    public int getScreenWidth() {
        return screenWidth;
    }

    public void setScreenWidth(int screenWidth) {
        this.screenWidth = screenWidth;
    }

    public int getScreenHeight() {
        return screenHeight;
    }

    public void setScreenHeight(int screenHeight) {
        this.screenHeight = screenHeight;
    }

    public boolean isDoNotTrack() {
        return doNotTrack;
    }

    public void setDoNotTrack(boolean doNotTrack) {
        this.doNotTrack = doNotTrack;
    }

    public String getAdvertisingId() {
        return advertisingId;
    }

    public void setAdvertisingId(String advertisingId) {
        this.advertisingId = advertisingId;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Device d)) {
            return false;
        }
        return screenWidth == d.screenWidth && screenHeight == d.screenHeight && doNotTrack == d.doNotTrack
                && Objects.equals(userAgent, d.userAgent) && Objects.equals(ip, d.ip) && Objects.equals(geo, d.geo)
                && type == d.type && Objects.equals(make, d.make) && Objects.equals(model, d.model)
                && Objects.equals(os, d.os) && Objects.equals(osVersion, d.osVersion)
                && Objects.equals(language, d.language) && Objects.equals(advertisingId, d.advertisingId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(userAgent, ip, geo, type, make, model, os, osVersion, language, screenWidth, screenHeight,
                doNotTrack, advertisingId);
    }

    @Override
    public String toString() {
        return "Device{type=" + type + ", make=" + make + ", model=" + model + ", os=" + os + " " + osVersion
                + ", ip=" + ip + ", geo=" + geo + ", language=" + language + ", screen=" + screenWidth + "x"
                + screenHeight + ", doNotTrack=" + doNotTrack + ", advertisingId=" + advertisingId
                + ", userAgent=" + userAgent + "}";
    }
}
