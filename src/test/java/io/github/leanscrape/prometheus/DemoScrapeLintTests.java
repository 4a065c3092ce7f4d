package io.github.leanscrape.prometheus;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import io.github.leanscrape.demo.DemoApplication;
import io.github.leanscrape.support.HttpScraper;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code promtool check metrics} finds nothing in the demo application's scrape in the
 * text format: every meter the demo registers has a description and a name promtool
 * accepts, and so do the starter's own. The JVM, Tomcat and HTTP server meters that
 * Spring Boot adds are there too, less the {@link #MICROMETER_FAMILIES few families} that
 * promtool finds fault with however they are served.
 *
 * @author leanscrape
 */
@Tag(PrometheusTests.TAG)
class DemoScrapeLintTests {

	/**
	 * The families that promtool 2.42 lints in Micrometer's own meters, with or without
	 * the starter (see {@link #theFamiliesLeftOutAreLintedWithSpringBootsOwnEndpoint}):
	 * neither the starter's doing nor the demo's, so left out of the scrape that is
	 * checked. Micrometer registers them:
	 * <ul>
	 * <li>{@code http.server.requests} and {@code http.server.requests.active}, the
	 * timers of Micrometer's {@code DefaultMeterObservationHandler}, which the starter's
	 * recording resolves exactly as that handler does, and Tomcat's
	 * {@code tomcat.sessions.*} ({@code TomcatMetrics}): no description, "no help
	 * text";</li>
	 * <li>{@code jvm.compilation.time} ({@code JvmCompilationMetrics}) and
	 * {@code process.cpu.time} ({@code ProcessorMetrics}), whose base units are
	 * {@code ms} and {@code ns}: "metric names should not contain abbreviated
	 * units";</li>
	 * <li>{@code system.cpu.count} ({@code ProcessorMetrics}), a gauge: "non-histogram
	 * and non-summary metrics should not have "_count" suffix".</li>
	 * </ul>
	 */
	private static final Set<String> MICROMETER_FAMILIES = Set.of("http_server_requests_seconds",
			"http_server_requests_seconds_max", "http_server_requests_active_seconds",
			"http_server_requests_active_seconds_max", "tomcat_sessions_active_current_sessions",
			"tomcat_sessions_active_max_sessions", "tomcat_sessions_alive_max_seconds",
			"tomcat_sessions_created_sessions_total", "tomcat_sessions_expired_sessions_total",
			"tomcat_sessions_rejected_sessions_total", "jvm_compilation_time_ms_total", "process_cpu_time_ns_total",
			"system_cpu_count");

	@Test
	void promtoolReportsNothingForTheDemosScrape(@TempDir Path directory) throws Exception {
		byte[] body = scrapeDemo();
		Set<String> left = new TreeSet<>();
		byte[] checked = withoutFamilies(body, MICROMETER_FAMILIES, left);
		assertThat(left).as("the families left out, all in the scrape").isEqualTo(MICROMETER_FAMILIES);
		Promtool.Result result = Promtool.checkMetrics(checked, directory, "demo");
		assertThat(result.lines()).as("what promtool check metrics printed (exit code %d)", result.exitCode())
			.isEmpty();
		assertThat(result.exitCode()).as("promtool check metrics's exit code").isEqualTo(Promtool.Result.CLEAN);
	}

	@Test
	void theFamiliesLeftOutAreLintedWithSpringBootsOwnEndpoint(@TempDir Path directory) throws Exception {
		// The demo without the starter: Spring Boot's endpoint, Micrometer's handler.
		byte[] body = scrapeDemo("--leanscrape.enabled=false", "--leanscrape.recording.enabled=false");
		Promtool.Result result = Promtool.checkMetrics(body, directory, "spring-boot");
		assertThat(result.exitCode()).as("promtool check metrics's exit code: %s", result.lines())
			.isEqualTo(Promtool.Result.LINT_PROBLEMS);
		Set<String> linted = new TreeSet<>();
		for (String line : result.lines()) {
			linted.add(line.substring(0, line.indexOf(' ')));
		}
		assertThat(linted).as("the families promtool finds fault with: %s", result.lines())
			.isEqualTo(new TreeSet<>(MICROMETER_FAMILIES));
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

	/**
	 * Return a text-format body without the named families: their {@code # HELP} and
	 * {@code # TYPE} lines and the samples that follow them.
	 * @param body the body
	 * @param families the names of the families to leave out, as in their {@code # TYPE}
	 * lines
	 * @param left collects the names of the families left out
	 * @return the rest of the body
	 */
	private static byte[] withoutFamilies(byte[] body, Set<String> families, Set<String> left) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(body.length);
		boolean leaving = false;
		for (String line : new String(body, StandardCharsets.UTF_8).split("\n")) {
			if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
				String name = Arrays.asList(line.split(" ", 4)).get(2);
				leaving = families.contains(name);
				if (leaving) {
					left.add(name);
				}
			}
			if (!leaving) {
				out.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
			}
		}
		return out.toByteArray();
	}

}
