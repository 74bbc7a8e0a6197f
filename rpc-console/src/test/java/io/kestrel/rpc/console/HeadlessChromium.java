package io.kestrel.rpc.console;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through its chromedriver: one browser per test class, a fresh profile,
 * screenshots to {@code target/console-screenshots/}. When either program is missing the test fails (it does
 * not skip) saying how to install them.
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    final WebDriver driver;
    private final Path profile;

    private HeadlessChromium(WebDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    static HeadlessChromium start() throws IOException {
        Path browser = firstExecutable(System.getProperty("kestrel.test.chromium"), "/usr/lib/chromium/chromium",
                "/usr/bin/chromium");
        Path chromedriver = firstExecutable(System.getProperty("kestrel.test.chromedriver"), "/usr/bin/chromedriver");
        if (browser == null || chromedriver == null) {
            fail("The console's browser tests need headless Chromium and chromedriver, and "
                    + (browser == null ? "chromium (/usr/bin/chromium)" : "chromedriver (/usr/bin/chromedriver)")
                    + " is not installed. Install both with: apt-get install -y chromium chromium-driver (Debian;"
                    + " ./run-tests.sh does it), or point -Dkestrel.test.chromium and -Dkestrel.test.chromedriver at them");
        }
        Path profile = Files.createTempDirectory("kestrel-console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1400,1000");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20)).scriptTimeout(Duration.ofSeconds(20));
        return new HeadlessChromium(driver, profile);
    }

    private static Path firstExecutable(String... candidates) {
        for (String c : candidates) {
            if (c != null && Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    /** Waits (at most 15 s) until {@code condition} holds, re-reading elements a refresh replaced. */
    WebDriverWait waiting() {
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(15));
        wait.ignoring(StaleElementReferenceException.class);
        return wait;
    }

    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path file = SCREENSHOTS.resolve(name + ".png");
        Files.write(file, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
