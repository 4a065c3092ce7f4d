package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.load.HttpConnection;
import io.github.leanscrape.serve.ScrapeResponder;
import io.micrometer.core.instrument.Counter;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A scrape as Prometheus sees it: {@code GET /actuator/prometheus} over real HTTP,
 * through a real server (Tomcat for Spring MVC, Reactor Netty for WebFlux) of a Spring
 * Boot application whose meter registry is a {@link SyntheticRegistry}, read by a client
 * on one kept-alive loopback connection, as Prometheus asks (OpenMetrics, uncompressed,
 * gzip or zstd).
 * <p>
 * The endpoints (see {@link #endpoint}), each in an application of its own: Spring Boot's
 * ({@code boot}, the starter turned off), the starter's ({@code leanscrape}), and the
 * transfer floor ({@code floor}): the starter's body for the same request, taken once and
 * sent again from memory by a controller of the same server, so the same bytes through
 * the same server and client with nothing rendered or compressed. What a scrape costs
 * above the floor is what the endpoint adds. The client reads into one reused buffer and
 * keeps nothing, so the bytes allocated per scrape ({@code -prof gc}) are the server's
 * but for a few hundred bytes of header strings (see {@link HttpConnection}); it does not
 * decompress (that is the scraper's cost, the same for every endpoint).
 * <p>
 * Nothing changes between scrapes unless {@link #changed} says so; then a scrape can
 * reuse what did not change since the last ({@link #reused}), and scrapers asking
 * different codings in turn can be measured ({@code gzip@3} and so on, see
 * {@link #encoding}).
 *
 * @author leanscrape
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(3)
public class ScrapeOverHttpBenchmark {

	private static final String OPENMETRICS = "application/openmetrics-text;version=1.0.0";

	private static final String PATH = "/actuator/prometheus";

	/**
	 * Spring Security is on the test class path for the security tests; the scraped
	 * application is open.
	 */
	private static final String[] SECURITY = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration" };

	/**
	 * How many series the registry has.
	 */
	@Param({ "10000", "100000" })
	public int seriesCount = 10_000;

	/**
	 * The server: {@code tomcat} (Spring MVC) or {@code netty} (WebFlux).
	 */
	@Param({ "tomcat", "netty" })
	public String server = "tomcat";

	/**
	 * What the scraper accepts: {@code identity}, {@code gzip} or {@code zstd} (which the
	 * starter sends when zstd-jni is on the class path, as it is here); or
	 * {@code gzip@3}, {@code zstd@3}, {@code identity@3}: three scrapers in turn, each on
	 * a connection of its own, only the named one's scrapes timed, the other two's made
	 * before each, outside the timed part (the starter's endpoint only).
	 */
	@Param({ "identity", "gzip", "zstd" })
	public String encoding = "identity";

	/**
	 * Who answers: {@code floor}, {@code leanscrape}, {@code boot}, {@code cached}: the
	 * starter serving every scrape from its body cache, so its whole path but rendering,
	 * or {@code in-process}: no HTTP at all, the application's starter scraped on the
	 * benchmark's thread as {@link ScrapeBenchmark#leanscrape} scrapes its own, so its
	 * rendering in the application's JVM beside the same rendering in JMH's.
	 */
	@Param({ "floor", "leanscrape", "boot" })
	public String endpoint = "leanscrape";

	/**
	 * How many requests the application serves before it is measured, {@code 0} for none:
	 * scrapes of no family ({@code name[]=none}), which render nothing but run the whole
	 * request path of the server, Spring and the actuator, so that it is compiled as a
	 * service's own traffic keeps it; a few scrapes a second leave it interpreted or
	 * half-compiled for minutes. For the starter's applications only: Spring Boot's
	 * endpoint collects every collector even for a scrape of no family.
	 */
	@Param({ "0" })
	public int warmRequests;

	/**
	 * Tomcat's socket write buffer ({@code socket.appWriteBufSize}) in bytes, through
	 * which Tomcat copies a response's body to the socket, or {@code 0} for Tomcat's
	 * default (8 KiB). For {@code server=tomcat} only.
	 */
	@Param({ "0" })
	public int tomcatWriteBuffer;

	/**
	 * How much changes before each scrape, as {@code change} in
	 * {@link ChangingScrapeBenchmark}: {@code 0}, {@code 10-blocks} or
	 * {@code 10-scattered}. Named apart from it, so that a run setting that benchmark's
	 * {@code change} (the gate's) leaves this one's alone.
	 */
	@Param({ "0" })
	public String changed = "0";

	/**
	 * Whether the starter reuses what did not change since the last scrape
	 * ({@code leanscrape.reuse.enabled}, with the starter's other defaults); off by
	 * default, where nothing changes, so that every series is formatted every time.
	 */
	@Param({ "false" })
	public boolean reused;

	private Counter[] changing = new Counter[0];

	/** The other scrapers' connections, scraped untimed before each timed scrape. */
	private final List<HttpConnection> untimed = new ArrayList<>();

	private @Nullable ConfigurableApplicationContext application;

	private @Nullable HttpConnection client;

	private @Nullable LeanscrapeScrapeEndpoint inProcessEndpoint;

	private @Nullable ScrapeResponder inProcessResponder;

	private final CountingSink inProcessSink = new CountingSink();

	/**
	 * Start the application and connect.
	 * @throws Exception when the application does not start or answer
	 */
	@Setup(Level.Trial)
	public void setUp() throws Exception {
		if (this.endpoint.equals("in-process") && !this.encoding.equals("identity")) {
			throw new IllegalArgumentException("In-process scrapes are uncompressed: encoding=identity only");
		}
		boolean inTurn = this.encoding.endsWith("@3");
		if (inTurn && !this.endpoint.equals("leanscrape")) {
			throw new IllegalArgumentException("Scrapers in turn: endpoint=leanscrape only");
		}
		String timed = inTurn ? this.encoding.substring(0, this.encoding.length() - 2) : this.encoding;
		SyntheticRegistry registry = SyntheticRegistry.build(this.seriesCount);
		this.changing = ChangingScrapeBenchmark.changingCounters(registry, this.changed);
		FloorBody floor = new FloorBody();
		ConfigurableApplicationContext application = new SpringApplicationBuilder(ScrapedApplication.class)
			.web(this.server.equals("netty") ? WebApplicationType.REACTIVE : WebApplicationType.SERVLET)
			.initializers((context) -> {
				context.getBeanFactory().registerSingleton("prometheusMeterRegistry", registry.meterRegistry());
				context.getBeanFactory().registerSingleton("prometheusRegistry", registry.prometheusRegistry());
				context.getBeanFactory().registerSingleton("floorBody", floor);
				if (this.tomcatWriteBuffer > 0) {
					String size = String.valueOf(this.tomcatWriteBuffer);
					context.getBeanFactory()
						.registerSingleton("tomcatWriteBuffer", (TomcatConnectorCustomizer) (connector) -> connector
							.setProperty("socket.appWriteBufSize", size));
				}
			})
			.properties("server.port=0", "server.address=127.0.0.1", "spring.main.banner-mode=off",
					"logging.level.root=warn", "management.endpoints.web.exposure.include=prometheus",
					"leanscrape.enabled=" + !this.endpoint.equals("boot"),
					"leanscrape.cache.time-to-live=" + (this.endpoint.equals("cached") ? "1h" : "0s"),
					"leanscrape.reuse.enabled=" + this.reused,
					"spring.autoconfigure.exclude=" + String.join(",", SECURITY))
			.run();
		this.application = application;
		int port = port(application);
		String acceptEncoding = "Accept-Encoding: " + timed;
		String path = PATH;
		if (this.endpoint.equals("floor")) {
			HttpResponse<byte[]> body = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH))
					.header("Accept", OPENMETRICS)
					.header("Accept-Encoding", this.encoding)
					.build(), HttpResponse.BodyHandlers.ofByteArray());
			floor.set(body.body(), body.headers().firstValue(HttpHeaders.CONTENT_TYPE).orElseThrow(),
					body.headers().firstValue(HttpHeaders.CONTENT_ENCODING).orElse(null));
			path = "/floor";
		}
		warmUp(port, acceptEncoding);
		if (this.endpoint.equals("in-process")) {
			this.inProcessEndpoint = application.getBean(LeanscrapeScrapeEndpoint.class);
			this.inProcessResponder = application.getBean(ScrapeResponder.class);
			System.out.println("in process: series=" + this.seriesCount + " bytes=" + scrape());
			return;
		}
		this.client = new HttpConnection("127.0.0.1", port, 60_000, path, "Accept: " + OPENMETRICS, acceptEncoding);
		if (inTurn) {
			for (String other : List.of("gzip", "zstd", "identity")) {
				if (!other.equals(timed)) {
					this.untimed.add(new HttpConnection("127.0.0.1", port, 60_000, path, "Accept: " + OPENMETRICS,
							"Accept-Encoding: " + other));
				}
			}
		}
		System.out.println("sent: server=" + this.server + " endpoint=" + this.endpoint + " encoding=" + this.encoding
				+ " series=" + this.seriesCount + " bytes=" + scrape());
	}

	private void warmUp(int port, String acceptEncoding) throws IOException {
		if (this.warmRequests == 0) {
			return;
		}
		// The brackets encoded: Tomcat refuses them bare.
		try (HttpConnection warm = new HttpConnection("127.0.0.1", port, 60_000, PATH + "?name%5B%5D=none",
				"Accept: " + OPENMETRICS, acceptEncoding)) {
			for (int i = 0; i < this.warmRequests; i++) {
				int status = warm.exchange();
				if (status != 200) {
					throw new IOException("A warming request answered " + status);
				}
			}
		}
	}

	private static int port(ConfigurableApplicationContext application) {
		String port = application.getEnvironment().getProperty("local.server.port");
		if (port == null) {
			throw new IllegalStateException("No server port");
		}
		return Integer.parseInt(port);
	}

	/**
	 * Close the connection and stop the application.
	 * @throws IOException when closing fails
	 */
	@TearDown(Level.Trial)
	public void tearDown() throws IOException {
		for (HttpConnection connection : this.untimed) {
			connection.close();
		}
		if (this.client != null) {
			this.client.close();
		}
		if (this.application != null) {
			this.application.close();
		}
	}

	/**
	 * Where scrapers take turns, the others scrape first, each after the change it would
	 * see.
	 * @throws IOException when a scrape fails
	 */
	@Setup(Level.Invocation)
	public void scrapeUntimed() throws IOException {
		for (HttpConnection connection : this.untimed) {
			change();
			int status = connection.exchange();
			if (status != 200) {
				throw new IOException("Scrape answered " + status);
			}
		}
	}

	private void change() {
		for (Counter counter : this.changing) {
			counter.increment();
		}
	}

	/**
	 * One scrape, read to its last byte.
	 * @return the bytes sent
	 * @throws IOException when the scrape fails
	 */
	@Benchmark
	public long scrape() throws IOException {
		change();
		LeanscrapeScrapeEndpoint inProcess = this.inProcessEndpoint;
		if (inProcess != null) {
			long before = this.inProcessSink.count();
			ScrapeBenchmark.scrapeWithStarter(inProcess, ScrapeState.nonNull(this.inProcessResponder),
					PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, this.inProcessSink);
			return this.inProcessSink.count() - before;
		}
		HttpConnection client = ScrapeState.nonNull(this.client);
		int status = client.exchange();
		if (status != 200) {
			throw new IOException("Scrape answered " + status);
		}
		return client.bodyLength();
	}

	/**
	 * The scraped application: Spring Boot's auto-configuration, with the benchmark's
	 * registries, and the controller that sends the floor.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class ScrapedApplication {

		@RestController
		static class FloorController {

			private final FloorBody floor;

			FloorController(FloorBody floor) {
				this.floor = floor;
			}

			@GetMapping("/floor")
			ResponseEntity<byte[]> floor() {
				ResponseEntity.BodyBuilder response = ResponseEntity.ok()
					.header(HttpHeaders.CONTENT_TYPE, this.floor.contentType);
				if (this.floor.contentEncoding != null) {
					response.header(HttpHeaders.CONTENT_ENCODING, this.floor.contentEncoding);
				}
				return response.body(this.floor.bytes);
			}

		}

	}

	/**
	 * The bytes the floor sends, with their headers.
	 */
	static final class FloorBody {

		volatile byte[] bytes = new byte[0];

		volatile String contentType = "text/plain";

		volatile @Nullable String contentEncoding;

		void set(byte[] bytes, String contentType, @Nullable String contentEncoding) {
			this.bytes = bytes;
			this.contentType = contentType;
			this.contentEncoding = contentEncoding;
		}

	}

}
