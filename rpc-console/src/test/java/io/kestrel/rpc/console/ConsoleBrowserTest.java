package io.kestrel.rpc.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.testing.Await;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The console in a real browser (headless Chromium) over a real in-process ZooKeeper: two providers of one
 * service (this runtime and another application), real calls through this runtime's reference, then each page
 * is read as a user sees it. The application's name carries markup that must show as text and never run.
 */
@Timeout(90)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
    static final String TOKEN = "browser-token-0123456789";
    /** Markup that would run or render if a page put data into innerHTML. */
    static final String HOSTILE_APP = "shop <script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\">";
    /** Markup in a service key (a version may hold any character but '/' and ':'). */
    static final String HOSTILE_VERSION = "2<img src=x onerror=window.__pwned=3>";
    static final ServiceKey KEY = new ServiceKey(Greeter.class.getName(), "1.0", "");

    static TestingServer zookeeper;
    static RpcRuntime billing;
    /** A provider of {@link Ticker} outside the registry, with one stream of this runtime's held open. */
    static RpcRuntime feeds;
    static Ticks held;
    static RpcRuntime runtime;
    static Greeter greeter;
    static HeadlessChromium browser;
    static String base;

    @BeforeAll
    static void start() throws Exception {
        browser = HeadlessChromium.start();
        zookeeper = new TestingServer(true);
        RegistryConfig registry = RegistryConfig.builder().address("zookeeper://" + zookeeper.getConnectString()).build();
        billing = RpcRuntime.builder().application(new ApplicationConfig("billing"))
                .protocol(ProtocolConfig.builder().port(0).build()).registry(registry).build();
        billing.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).version("1.0").build());
        runtime = RpcRuntime.builder().application(new ApplicationConfig(HOSTILE_APP))
                .protocol(ProtocolConfig.builder().port(0).build()).registry(registry)
                .addOn(KestrelConsole.of(ConsoleConfig.builder().enabled(true).port(0).token(TOKEN).allowInvoke(true)
                        .allowMutations(true).build())).build();
        runtime.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).version("1.0").build());
        runtime.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).version(HOSTILE_VERSION).build());
        greeter = runtime.refer(ReferenceConfig.builder(Greeter.class).version("1.0").build());
        Await.until("both providers ready", () -> runtime.inspect().references().get(0).providers().stream()
                .filter(p -> p.ready()).count() == 2);
        for (int i = 0; i < 20; i++) {
            greeter.greet("caller " + i);
        }
        for (int i = 0; i < 2; i++) {
            assertThrows(IllegalStateException.class, () -> greeter.fail("on purpose"));
        }
        feeds = RpcRuntime.builder().protocol(ProtocolConfig.builder().port(0).build()).build();
        feeds.export(ServiceConfig.builder(Ticker.class, new Ticker.Impl()).build());
        // the stream's deadline (the call's timeout) outlasts the tests, so it stays open until the runtimes close
        Ticker ticker = runtime.refer(ReferenceConfig.builder(Ticker.class).url("127.0.0.1:" + feeds.boundPort())
                .timeout(java.time.Duration.ofMinutes(5)).build());
        held = new Ticks();
        ticker.hold(3, held);
        Await.until("the held stream's messages arrived", () -> held.count.get() == 3);
        base = "http://127.0.0.1:" + runtime.addOn(KestrelConsole.class).orElseThrow().port() + "/";
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (runtime != null) {
                runtime.close();
            }
            if (billing != null) {
                billing.close();
            }
            if (feeds != null) {
                feeds.close();
            }
            if (zookeeper != null) {
                zookeeper.close();
            }
        }
    }

    private WebElement open(String page, String elementId) {
        browser.driver.get(base + "#" + page);
        browser.driver.navigate().refresh(); // a hash change alone would keep the previous document
        return browser.waiting().until(d -> d.findElement(By.id(elementId)));
    }

    private String textOf(String id) {
        return browser.driver.findElement(By.id(id)).getText();
    }

    private void waitForText(String id, String... parts) {
        browser.waiting().withMessage(() -> "#" + id + " to show " + List.of(parts) + "; it shows: "
                + browser.driver.findElement(By.id(id)).getText()).until(d -> {
                    String text = d.findElement(By.id(id)).getText();
                    for (String p : parts) {
                        if (!text.contains(p)) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    @Test
    @Order(1)
    void servicesPageListsWhatIsExportedAndReferencedWithProviderStates() throws Exception {
        open("services", "exported");
        waitForText("exported", KEY.toString(), "127.0.0.1:" + runtime.boundPort(), "online", "greet", "find", "fail");
        waitForText("referenced", KEY.toString(), "127.0.0.1:" + runtime.boundPort() + " READY",
                "127.0.0.1:" + billing.boundPort() + " READY");
        waitForText("summary", "server", "port " + runtime.boundPort());
        browser.screenshot("services");
    }

    @Test
    @Order(2)
    void registryPageShowsProviderAndConsumerRecordsFromZooKeeper() throws Exception {
        open("registry", "providers-0");
        waitForText("providers-0", "127.0.0.1:" + runtime.boundPort(), "127.0.0.1:" + billing.boundPort(), "billing",
                HOSTILE_APP, "fory", ProcessHandle.current().pid() + "");
        waitForText("consumers-0", HOSTILE_APP);
        browser.screenshot("registry");
    }

    @Test
    @Order(3)
    void connectionsPageShowsEachProviderConnectionAndTheServer() throws Exception {
        open("connections", "connections");
        waitForText("connections", "127.0.0.1:" + runtime.boundPort() + " READY 0",
                "127.0.0.1:" + billing.boundPort() + " READY 0",
                "127.0.0.1:" + feeds.boundPort() + " READY 1 1"); // pending calls, open streams
        waitForText("summary", "open streams");
        waitForText("summary", "consumer connections", "in-flight calls");
        browser.screenshot("connections");
    }

    @Test
    @Order(4)
    void callsPageShowsCountsErrorsAndLatencyOfTheRealCalls() throws Exception {
        open("calls", "calls");
        waitForText("calls", "consumer " + KEY + " greet(String) 20 0", "consumer " + KEY + " fail(String) 2 2",
                "100.0 %");
        WebElement greetRow = browser.driver.findElement(By.cssSelector("#calls tr[data-method='greet(String)']"));
        List<WebElement> cells = greetRow.findElements(By.tagName("td"));
        assertEquals("consumer", cells.get(0).getText());
        double p50 = Double.parseDouble(cells.get(7).getText());
        double max = Double.parseDouble(cells.get(10).getText());
        assertTrue(p50 > 0 && p50 <= max, "p50 " + p50 + " max " + max);
        assertTrue(textOf("calls").contains("provider " + KEY + " greet(String)"), textOf("calls"));
        waitForText("calls", "consumer " + Ticker.class.getName() + " hold(Integer, StreamObserver) 0 0");
        List<WebElement> stream = browser.driver.findElement(By.cssSelector(
                "#calls tr[data-method='hold(Integer, StreamObserver)']")).findElements(By.tagName("td"));
        assertEquals(List.of("1", "3", "0"), stream.subList(11, 14).stream().map(WebElement::getText).toList(),
                "open streams, messages in, messages out");
        assertEquals(List.of("", "", ""), cells.subList(11, 14).stream().map(WebElement::getText).toList(),
                "a unary method has no stream figures");
        browser.screenshot("calls");
    }

    @Test
    @Order(5)
    void markupInRecordsShowsAsTextAndNeverRuns() {
        for (String page : new String[] {"services", "registry", "connections", "calls"}) {
            open(page, "main");
            browser.waiting().until(d -> page.equals(d.findElement(By.id("main")).getAttribute("data-page")));
            JavascriptExecutor js = (JavascriptExecutor) browser.driver;
            assertNull(js.executeScript("return window.__pwned === undefined ? null : window.__pwned"), page);
            assertEquals(0L, js.executeScript("return document.querySelectorAll('main img, main script').length"),
                    page);
        }
        open("registry", "consumers-0");
        waitForText("consumers-0", "<script>window.__pwned=1</script>");
        waitForText("main", Greeter.class.getName() + ":" + HOSTILE_VERSION);
        open("services", "exported");
        waitForText("exported", Greeter.class.getName() + ":" + HOSTILE_VERSION);
        assertNull(((JavascriptExecutor) browser.driver).executeScript("return window.__pwned === undefined ? null : 1"));
        assertEquals(0L, ((JavascriptExecutor) browser.driver).executeScript("return document.querySelectorAll('img').length"));
        assertNull(((JavascriptExecutor) browser.driver).executeScript("return window.__pwned === undefined ? null : 1"));
    }

    @Test
    @Order(6)
    void invokeFormCallsThroughGenericInvocationAndNeedsTheToken() throws Exception {
        ((JavascriptExecutor) browser.driver).executeScript("sessionStorage.clear()");
        open("invoke", "invoke-method");
        Select method = new Select(browser.driver.findElement(By.id("invoke-method")));
        browser.waiting().until(d -> method.getOptions().size() == 3);
        assertEquals(List.of("fail(java.lang.String)", "find(long, java.util.List<java.lang.String>)",
                "greet(java.lang.String)"), method.getOptions().stream().map(WebElement::getText).toList());
        method.selectByVisibleText("greet(java.lang.String)");
        WebElement arg = browser.waiting().until(d -> d.findElement(By.id("arg-0")));
        assertEquals("\"\"", arg.getAttribute("value"));
        arg.clear();
        arg.sendKeys("\"Ada <b>Lovelace</b>\"");
        browser.driver.findElement(By.id("invoke-run")).click();
        waitForText("invoke-result", "HTTP 401", "needs the console token");

        browser.driver.findElement(By.id("token")).sendKeys(TOKEN);
        browser.driver.findElement(By.id("invoke-run")).click();
        waitForText("invoke-result", "OK in", "\"Hello, Ada <b>Lovelace</b>\"");
        browser.screenshot("invoke");

        method.selectByVisibleText("find(long, java.util.List<java.lang.String>)");
        browser.waiting().until(d -> d.findElement(By.id("arg-1")).getAttribute("value").contains("\"\""));
        setArgument("arg-0", "7");
        setArgument("arg-1", "[\"vip\", \"<i>x</i>\"]");
        browser.driver.findElement(By.id("invoke-run")).click();
        waitForText("invoke-result", "OK in", "\"name\": \"person 7\"", "\"age\": 7", "\"<i>x</i>\"");

        method.selectByVisibleText("fail(java.lang.String)");
        setArgument("arg-0", "\"from the console\"");
        browser.driver.findElement(By.id("invoke-run")).click();
        waitForText("invoke-result", "service_error", "failed on purpose: from the console");
        assertNull(((JavascriptExecutor) browser.driver).executeScript(
                "return document.querySelector('#invoke-result b, #invoke-result i')"));
    }

    private void setArgument(String id, String json) {
        WebElement arg = browser.driver.findElement(By.id(id));
        arg.clear();
        arg.sendKeys(json);
    }

    @Test
    @Order(7)
    void offlineWithoutTheTokenIsRefusedAndWithItUnregistersUntilOnline() throws Exception {
        ((JavascriptExecutor) browser.driver).executeScript("sessionStorage.clear()");
        open("services", "exported");
        clickToggle();
        confirm();
        waitForText("notice", "HTTP 401", "needs the console token");
        assertTrue(runtime.exporter(KEY).orElseThrow().isOnline());
        assertEquals(2, runtime.inspect().providers(KEY).size());

        browser.driver.findElement(By.id("token")).sendKeys(TOKEN);
        clickToggle();
        browser.waiting().until(d -> d.findElement(By.id("confirm-text")).getText().contains("offline?"));
        browser.screenshot("offline-confirm");
        confirm();
        waitForText("notice", KEY + " is now offline");
        Await.until("the registry without this runtime's record", () -> runtime.inspect().providers(KEY).size() == 1);
        assertEquals(billing.boundPort(), runtime.inspect().providers(KEY).get(0).port());
        waitForText("exported", "offline", "Bring online");
        assertEquals("Hello, still served", greeter.greet("still served")); // the other provider serves on

        clickToggle();
        confirm();
        waitForText("notice", KEY + " is now online");
        Await.until("this runtime's record back in the registry", () -> runtime.inspect().providers(KEY).size() == 2);
        assertTrue(runtime.exporter(KEY).orElseThrow().isOnline());
        waitForText("exported", "Take offline");
        assertFalse(textOf("exported").contains("Bring online"));
    }

    /**
     * The services page of an application with an ordinary name (the picture in docs/console.md): a second runtime,
     * "orders", with its own console, exporting and calling the service beside "billing".
     */
    @Test
    @Order(8)
    void anOrdinaryApplicationsServicesPage() throws Exception {
        RegistryConfig registry = RegistryConfig.builder().address("zookeeper://" + zookeeper.getConnectString()).build();
        try (RpcRuntime orders = RpcRuntime.builder().application(new ApplicationConfig("orders"))
                .protocol(ProtocolConfig.builder().port(0).build()).registry(registry)
                .addOn(KestrelConsole.of(ConsoleConfig.builder().enabled(true).port(0).build())).build()) {
            orders.export(ServiceConfig.builder(Greeter.class, new GreeterImpl()).version("1.0").build());
            Greeter ordersGreeter = orders.refer(ReferenceConfig.builder(Greeter.class).version("1.0").build());
            Await.until("orders sees three providers ready", () -> orders.inspect().references().get(0).providers().stream()
                    .filter(p -> p.ready()).count() == 3);
            for (int i = 0; i < 30; i++) {
                ordersGreeter.greet("customer " + i);
            }
            browser.driver.get("http://127.0.0.1:" + orders.addOn(KestrelConsole.class).orElseThrow().port() + "/#services");
            browser.driver.navigate().refresh();
            browser.waiting().until(d -> d.findElement(By.id("exported")));
            waitForText("app", "orders");
            waitForText("referenced", "127.0.0.1:" + orders.boundPort() + " READY",
                    "127.0.0.1:" + billing.boundPort() + " READY", "127.0.0.1:" + runtime.boundPort() + " READY");
            browser.screenshot("services-orders");
        }
    }

    private void clickToggle() {
        browser.waiting().until(d -> {
            d.findElement(By.cssSelector("#exported button.toggle")).click();
            return d.findElement(By.id("confirm")).isDisplayed();
        });
    }

    private void confirm() {
        browser.driver.findElement(By.id("confirm-yes")).click();
    }
}
