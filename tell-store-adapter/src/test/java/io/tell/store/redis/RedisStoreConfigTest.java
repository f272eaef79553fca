package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.StoreUrl;
import io.tell.store.redis.RedisStoreConfig.Address;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedisStoreConfigTest {
    private static RedisStoreConfig parse(String url) {
        return RedisStoreConfig.parse(StoreUrl.parse(url));
    }

    @Test
    void oneHostIsStandaloneWithDefaults() {
        RedisStoreConfig c = parse("redis://127.0.0.1:6380");
        assertEquals(List.of(new Address("127.0.0.1", 6380)), c.hosts());
        assertFalse(c.cluster());
        assertEquals(0, c.replicas());
        assertEquals(Duration.ofMillis(2000), c.timeout());
        assertEquals("redis://127.0.0.1:6380", c.describe());
    }

    @Test
    void aStandaloneServerOverPlainTcpIsCalledDirectlyUnlessSaidOtherwise() {
        assertTrue(parse("redis://h:6380").direct());
        RedisStoreConfig lettuce = parse("redis://h:6380?client=lettuce");
        assertFalse(lettuce.direct());
        assertEquals("redis://h:6380?client=lettuce", lettuce.describe());
        assertFalse(parse("redis://h1:7000,h2:7001").direct());
        assertFalse(parse("rediss://h:6380").direct());
        for (String bad : new String[] {"redis://h:6380?client=jedis", "redis://h1:1,h2:2?client=direct",
                "rediss://h:6380?client=direct"}) {
            TellException e = assertThrows(TellException.class, () -> parse(bad), bad);
            assertEquals(ErrorCode.BAD_CONFIGURATION, e.code());
            assertTrue(e.getMessage().contains("client"), e.getMessage());
        }
    }

    @Test
    void severalHostsMeanClusterUnlessSaidOtherwise() {
        RedisStoreConfig c = parse("redis://h1:7000,h2:7001,h3?replicas=1&timeoutMs=500");
        assertTrue(c.cluster());
        assertEquals(List.of(new Address("h1", 7000), new Address("h2", 7001), new Address("h3", 6379)), c.hosts());
        assertEquals(1, c.replicas());
        assertEquals(Duration.ofMillis(500), c.timeout());
        assertEquals(Duration.ofMillis(250), c.waitTimeout());
        assertEquals("redis://h1:7000,h2:7001,h3:6379?replicas=1&timeoutMs=500", c.describe());
    }

    @Test
    void aSingleSeedCanBeACluster() {
        RedisStoreConfig c = parse("redis://h:7000?cluster=true");
        assertTrue(c.cluster());
        assertEquals("redis://h:7000?cluster=true", c.describe());
    }

    @Test
    void ipv6HostsGoInBrackets() {
        RedisStoreConfig c = parse("redis://[::1]:7000");
        assertEquals(new Address("::1", 7000), c.hosts().get(0));
        assertEquals("redis://[::1]:7000", c.describe());
    }

    @Test
    void aPasswordOrAclUserIsParsedButNeverShown() {
        RedisStoreConfig c = parse("redis://:pa%3Ass+w@rd@h:7000");
        assertEquals(new RedisStoreConfig.Login(null, "pa:ss+w@rd"), c.login());
        assertEquals("redis://:***@h:7000", c.describe());
        RedisStoreConfig acl = parse("redis://app:pw@h1:7000,h2:7001?replicas=1");
        assertEquals(new RedisStoreConfig.Login("app", "pw"), acl.login());
        assertTrue(acl.cluster());
        assertEquals("redis://app:***@h1:7000,h2:7001?replicas=1", acl.describe());
        assertFalse(acl.toString().contains("pw"), acl.toString());
    }

    @Test
    void redissMeansTls() {
        RedisStoreConfig c = parse("rediss://:pw@h:6380?tlsCa=/etc/tell/ca.pem");
        assertTrue(c.tls());
        assertEquals("/etc/tell/ca.pem", c.tlsCa());
        assertEquals("rediss://:***@h:6380?tlsCa=/etc/tell/ca.pem", c.describe());
        assertFalse(parse("redis://h:6380").tls());
    }

    @Test
    void messagesAboutABadUrlHideItsPassword() {
        TellException e = assertThrows(TellException.class, () -> parse("redis://:hunter2@h:x"));
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        assertTrue(e.getMessage().contains("redis://:***@h:x"), e.getMessage());
        assertEquals("rediss://u:***@h:1?timeoutMs=5", StoreUrl.redact("rediss://u:p@ss@h:1?timeoutMs=5"));
        assertEquals("redis://h:1", StoreUrl.redact("redis://h:1"));
        assertEquals("mem:x", StoreUrl.redact("mem:x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://user@h:1", "redis://:@h:1", "redis://h:1?tlsCa=/ca.pem", "rediss://h:1?tlsCa=",
        "redis://:a%zz@h:1"})
    void badLoginsAndTlsOptionsAreConfigurationErrors(String url) {
        TellException e = assertThrows(TellException.class, () -> parse(url));
        assertEquals(ErrorCode.BAD_CONFIGURATION, e.code());
    }

    @ParameterizedTest
    @ValueSource(strings = {"redis://", "redis:", "redis://:6379", "redis://h:", "redis://h:x", "redis://h:0",
        "redis://h:70000", "redis://a:1,,b:2", "redis://h:1?replicas=-1", "redis://h:1?replicas=x",
        "redis://h:1?timeoutMs=0", "redis://h:1?timeoutMs=abc", "redis://h:1?cluster=yes", "redis://h:1?colour=red",
        "redis://a:1,b:2?cluster=false", "redis://[::1:7000"})
    void badUrlsAreConfigurationErrorsThatNameTheUrl(String url) {
        TellException e = assertThrows(TellException.class, () -> parse(url));
        assertEquals(ErrorCode.BAD_CONFIGURATION, e.code());
        assertTrue(e.getMessage().contains(url), e.getMessage());
    }
}
