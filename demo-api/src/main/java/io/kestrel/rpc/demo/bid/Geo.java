package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.Objects;

/** Where a device is, as far as the exchange knows. Mutable bean. */
public class Geo implements Serializable {
    private static final long serialVersionUID = 1L;

    private double latitude;
    private double longitude;
    private String country;
    private String region;
    private String city;
    private String zip;
    private int utcOffsetMinutes;

    public Geo() {
    }

    public double getLatitude() {
        return latitude;
    }

    public void setLatitude(double latitude) {
        this.latitude = latitude;
    }

    public double getLongitude() {
        return longitude;
    }

    public void setLongitude(double longitude) {
        this.longitude = longitude;
    }

    public String getCountry() {
        return country;
    }

    public void setCountry(String country) {
        this.country = country;
    }

    public String getRegion() {
        return region;
    }

    public void setRegion(String region) {
        this.region = region;
    }

    public String getCity() {
        return city;
    }

    public void setCity(String city) {
        this.city = city;
    }

    public String getZip() {
        return zip;
    }

    public void setZip(String zip) {
        this.zip = zip;
    }

    public int getUtcOffsetMinutes() {
        return utcOffsetMinutes;
    }

    public void setUtcOffsetMinutes(int utcOffsetMinutes) {
        this.utcOffsetMinutes = utcOffsetMinutes;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Geo g)) {
            return false;
        }
        return Double.compare(latitude, g.latitude) == 0 && Double.compare(longitude, g.longitude) == 0
                && utcOffsetMinutes == g.utcOffsetMinutes && Objects.equals(country, g.country)
                && Objects.equals(region, g.region) && Objects.equals(city, g.city) && Objects.equals(zip, g.zip);
    }

    @Override
    public int hashCode() {
        return Objects.hash(latitude, longitude, country, region, city, zip, utcOffsetMinutes);
    }

    @Override
    public String toString() {
        return "Geo{" + latitude + "," + longitude + ", country=" + country + ", region=" + region + ", city=" + city
                + ", zip=" + zip + ", utcOffsetMinutes=" + utcOffsetMinutes + "}";
    }
}
