package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * The person behind the device, as far as the exchange may tell (OpenRTB's "user" object; named
 * differently to avoid confusion with {@link io.kestrel.rpc.demo.user.User}). Mutable bean.
 */
public class Visitor implements Serializable {
    private static final long serialVersionUID = 1L;

    private String id;
    private String buyerUid;
    /** Year of birth, 0 when unknown. */
    private int yearOfBirth;
    /** "M", "F", "O" or null when unknown. */
    private String gender;
    private List<String> keywords;

    public Visitor() {
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public String getBuyerUid() {
        return buyerUid;
    }

    public void setBuyerUid(String buyerUid) {
        this.buyerUid = buyerUid;
    }

    public int getYearOfBirth() {
        return yearOfBirth;
    }

    public void setYearOfBirth(int yearOfBirth) {
        this.yearOfBirth = yearOfBirth;
    }

    public String getGender() {
        return gender;
    }

    public void setGender(String gender) {
        this.gender = gender;
    }

    public List<String> getKeywords() {
        return keywords;
    }

    public void setKeywords(List<String> keywords) {
        this.keywords = keywords;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Visitor v)) {
            return false;
        }
        return yearOfBirth == v.yearOfBirth && Objects.equals(id, v.id) && Objects.equals(buyerUid, v.buyerUid)
                && Objects.equals(gender, v.gender) && Objects.equals(keywords, v.keywords);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, buyerUid, yearOfBirth, gender, keywords);
    }

    @Override
    public String toString() {
        return "Visitor{id=" + id + ", buyerUid=" + buyerUid + ", yearOfBirth=" + yearOfBirth + ", gender=" + gender
                + ", keywords=" + keywords + "}";
    }
}
