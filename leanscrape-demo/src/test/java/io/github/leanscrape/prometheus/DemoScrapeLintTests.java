package io.github.leanscrape.prometheus;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.github.leanscrape.demo.DemoApplication;
import io.github.leanscrape.demo.DemoMeterFilter;
import io.github.leanscrape.support.HttpScraper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code promtool check metrics} finds nothing in the demo application's scrape in the
 * text format, with the starter and with Spring Boot's own endpoint: every meter the demo
 * registers has a description and a name promtool accepts, and so do the starter's own;
 * the JVM, Tomcat and HTTP server meters that Micrometer adds pass through the demo's
 * {@link DemoMeterFilter}.
 *
 * @author leanscrape
 */
@Tag(PrometheusTests.TAG)
class DemoScrapeLintTests {

	@Test
	void promtoolReportsNothingForTheDemosScrape(@TempDir Path directory) throws Exception {
		byte[] body = scrapeDemo();
		assertThat(new String(body, StandardCharsets.UTF_8)).as("the scrape holds Micrometer's own meters")
			.contains("# HELP http_server_requests_seconds ", "# HELP tomcat_sessions_created_sessions_total ",
					"# HELP jvm_memory_used_bytes ");
		assertClean(Promtool.checkMetrics(body, directory, "demo"));
	}

	@Test
	void promtoolReportsNothingForSpringBootsEndpointOnTheDemo(@TempDir Path directory) throws Exception {
		// The demo without the starter: Spring Boot's endpoint, Micrometer's handler.
		byte[] body = scrapeDemo("--leanscrape.enabled=false", "--leanscrape.recording.enabled=false");
		assertClean(Promtool.checkMetrics(body, directory, "spring-boot"));
	}

	private static void assertClean(Promtool.Result result) {
		assertThat(result.lines()).as("what promtool check metrics printed (exit code %d)", result.exitCode())
			.isEmpty();
		assertThat(result.exitCode()).as("promtool check metrics's exit code").isEqualTo(Promtool.Result.CLEAN);
	}

	/**
	 * Start the demo with its own settings (its default number of series) on a free port,
	 * send it a request and a first scrape, so that the HTTP server meters of both are
	 * there, and return a second scrape in the text format.
	 * @param arguments further application arguments
	 * @return the body of the second scrape
	 */
	private static byte[] scrapeDemo(String... arguments) {
		String[] all = new String[arguments.length + 3];
		all[0] = "--server.port=0";
		all[1] = "--server.address=127.0.0.1";
		all[2] = "--spring.main.banner-mode=off";
		System.arraycopy(arguments, 0, all, 3, arguments.length);
		try (ConfigurableApplicationContext context = DemoApplication.application().run(all)) {
			HttpScraper http = new HttpScraper(((WebServerApplicationContext) context).getWebServer().getPort());
			assertThat(http.get("/hello").statusCode()).isEqualTo(200);
			assertThat(http.get("/actuator/prometheus", "Accept", "text/plain").statusCode()).isEqualTo(200);
			HttpResponse<byte[]> response = http.get("/actuator/prometheus", "Accept", "text/plain");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type"))
				.hasValueSatisfying((contentType) -> assertThat(contentType).startsWith("text/plain;version=0.0.4"));
			return response.body();
		}
	}

}
