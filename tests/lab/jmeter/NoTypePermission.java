package com.thoughtworks.xstream.security;

/*
 * For recording the lab only (tests/lab/record.sh), never built into perfreport: Debian 12's
 * JMeter 2.13 loads its .jmx through XStream 1.4.20, whose allow-list rejects every JMeter
 * class ("ForbiddenClassException: org.apache.jmeter.save.ScriptWrapper"). This class, put
 * ahead of xstream.jar on JMeter's class path, makes the catch-all permission allow.
 */
public class NoTypePermission implements TypePermission {
    public static final TypePermission NONE = new NoTypePermission();

    public boolean allows(final Class type) {
        return true;
    }

    public int hashCode() {
        return 1;
    }

    public boolean equals(final Object obj) {
        return obj != null && obj.getClass() == NoTypePermission.class;
    }
}
