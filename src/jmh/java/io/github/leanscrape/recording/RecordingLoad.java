package io.github.leanscrape.recording;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.leanscrape.recording.reactive.CachingReactiveServerRequestObservationConvention;
import io.github.leanscrape.recording.reactive.ServerRequestRecordingWebHandler;
import io.github.leanscrape.recording.servlet.CachingServerRequestObservationConvention;
import io.github.leanscrape.recording.servlet.ServerRequestMetricsFilter;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationConvention;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * End-to-end cost of recording {@code http.server.requests}: a trivial Spring MVC
 * endpoint on Tomcat (or, with {@code -Dstack=webflux}, Spring WebFlux on Reactor Netty)
 * under a closed-loop load, in five configurations, each in a server JVM of its own:
 * <ul>
 * <li>{@code default}: Spring Boot's default meter observation handler
 * ({@code leanscrape.recording.enabled=false});</li>
 * <li>{@code handler}: the starter's handler with Spring's request observation convention
 * (an application bean of it, so the starter's convention backs off);</li>
 * <li>{@code leanscrape}: the starter's handler and its caching request observation
 * convention, through Micrometer's observation
 * ({@code leanscrape.recording.direct-server-requests=false}, what the starter does where
 * a tracer observes the request);</li>
 * <li>{@code direct}: the starter as it comes, recording without Micrometer's observation
 * ({@code leanscrape.recording.direct-server-requests=true}, the default);</li>
 * <li>{@code disabled}: the observation turned off
 * ({@code management.observations.enable.http.server.requests=false}).</li>
 * </ul>
 * The five servers run side by side, idle but for the one under load, and are measured in
 * turn: each is first loaded for {@code -Dwarmup} seconds (not counted), then
 * {@code -Dslices} times for {@code -Dslice} seconds each, the configurations taking
 * turns (each slice begins with the next one). Taking turns in short slices spreads the
 * machine's slow swings in speed (on a shared 2-core machine, tens of percent over
 * minutes) over every configuration alike, where one long run per configuration would
 * give each its own part of them. The whole is repeated in {@code -Dlaunches} fresh sets
 * of JVMs, since one JVM's compiled code differs from the next one's. Per slice the
 * server reports the bytes its threads allocated ({@code ThreadMXBean}) and its process
 * CPU time; the totals over the slices give requests per second, bytes and CPU time per
 * request.
 * <p>
 * The load: {@code -Dconnections} keep-alive connections, each sending its next
 * {@code GET /hello} when the previous answer arrived, from this JVM's threads (raw
 * sockets), or with {@code -Dclient=wrk} from {@code wrk -t1} (Debian's {@code wrk}
 * package): one C thread, as in the measurement that motivated the starter's recording
 * ({@code wrk -t1 -c8}), which leaves the server more of the machine. Run after
 * {@code ./mvnw -Pjmh test-compile dependency:build-classpath -Dmdep.outputFile=target/jmh.classpath -Dmdep.includeScope=test}:
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/jmh.classpath) io.github.leanscrape.recording.RecordingLoad
 * </pre>
 */
public final class RecordingLoad {

	private static final String[] MODES = { "default", "handler", "leanscrape", "direct", "disabled" };

	private static final int DEFAULT = 0;

	private static final int DISABLED = 4;

	private RecordingLoad() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 3 && args[0].equals("server")) {
			serve(args[1], args[2]);
			return;
		}
		int launches = Integer.getInteger("launches", 2);
		int warmup = Integer.getInteger("warmup", 20);
		int slice = Integer.getInteger("slice", 2);
		int slices = Integer.getInteger("slices", 15);
		int connections = Integer.getInteger("connections", 8);
		String heap = System.getProperty("heap", "512m");
		boolean wrk = "wrk".equals(System.getProperty("client", "java"));
		String stack = System.getProperty("stack", "webmvc");
		System.out.println("stack: " + stack);
		Totals all = new Totals();
		for (int launch = 1; launch <= launches; launch++) {
			Totals totals = new Totals();
			Process[] servers = new Process[MODES.length];
			int[] ports = new int[MODES.length];
			try {
				for (int mode = 0; mode < MODES.length; mode++) {
					servers[mode] = start(MODES[mode], stack, heap);
					ports[mode] = awaitPort(servers[mode]);
				}
				for (int mode = 0; mode < MODES.length; mode++) {
					measure(ports[mode], connections, warmup, wrk);
				}
				for (int round = 0; round < slices; round++) {
					// Each slice starts with the next configuration, so none is always
					// first.
					for (int i = 0; i < MODES.length; i++) {
						int mode = (round + i) % MODES.length;
						double[] sample = measure(ports[mode], connections, slice, wrk);
						totals.add(mode, sample);
						all.add(mode, sample);
					}
				}
			}
			finally {
				for (Process server : servers) {
					if (server != null) {
						server.destroy();
						server.waitFor();
					}
				}
			}
			totals.report("launch " + launch);
		}
		if (launches > 1) {
			all.report("all " + launches + " launches");
		}
	}

	private static Process start(String mode, String stack, String heap) throws IOException {
		Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
		return new ProcessBuilder(java.toString(), "-Xms" + heap, "-Xmx" + heap, "-cp",
				System.getProperty("java.class.path"), RecordingLoad.class.getName(), "server", mode, stack)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
	}

	/**
	 * Load one server for some seconds and return the requests it answered, the seconds
	 * counted, and the bytes its threads allocated and the CPU time it used meanwhile.
	 */
	private static double[] measure(int port, int connections, int seconds, boolean wrk) throws Exception {
		long allocatedBefore = read(port, "/allocated");
		long cpuBefore = read(port, "/cpu");
		double[] counted = wrk ? wrk(port, connections, seconds) : threads(port, connections, seconds);
		long cpuAfter = read(port, "/cpu");
		long allocatedAfter = read(port, "/allocated");
		return new double[] { counted[0], counted[1], allocatedAfter - allocatedBefore, cpuAfter - cpuBefore };
	}

	private static double[] threads(int port, int connections, int seconds) throws Exception {
		Client client = new Client(port, connections);
		long start = System.nanoTime();
		client.start();
		Thread.sleep(seconds * 1000L);
		long count = client.count();
		long elapsed = System.nanoTime() - start;
		client.stop();
		return new double[] { count, elapsed / 1e9 };
	}

	/**
	 * Run {@code wrk} and return the requests it completed and the seconds they took.
	 */
	private static double[] wrk(int port, int connections, int seconds) throws Exception {
		Process wrk = new ProcessBuilder("wrk", "-t1", "-c" + connections, "-d" + seconds + "s",
				"http://127.0.0.1:" + port + "/hello")
			.redirectErrorStream(true)
			.start();
		String output = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
		if (wrk.waitFor() != 0) {
			throw new IllegalStateException("wrk failed: " + output);
		}
		Matcher requests = Pattern.compile("(\\d+) requests in").matcher(output);
		Matcher rate = Pattern.compile("Requests/sec:\\s+([0-9.]+)").matcher(output);
		if (!requests.find() || !rate.find() || output.contains("Non-2xx") || output.contains("Socket errors")) {
			throw new IllegalStateException("Unexpected wrk output: " + output);
		}
		double count = Double.parseDouble(requests.group(1));
		return new double[] { count, count / Double.parseDouble(rate.group(1)) };
	}

	/**
	 * Requests, seconds, bytes and CPU time summed per configuration over the slices.
	 */
	private static final class Totals {

		private final double[][] sums = new double[MODES.length][4];

		private final List<List<Double>> sliceThroughput = new ArrayList<>();

		Totals() {
			for (int mode = 0; mode < MODES.length; mode++) {
				this.sliceThroughput.add(new ArrayList<>());
			}
		}

		void add(int mode, double[] sample) {
			for (int i = 0; i < 4; i++) {
				this.sums[mode][i] += sample[i];
			}
			this.sliceThroughput.get(mode).add(sample[0] / sample[1]);
		}

		void report(String title) {
			double[] throughput = new double[MODES.length];
			double[] bytes = new double[MODES.length];
			double[] cpu = new double[MODES.length];
			System.out.printf(Locale.ROOT, "%n%s%n%-10s %10s %10s %14s %22s%n", title, "handler", "req/s", "B/req",
					"us CPU/req", "req/s of slices (min-max)");
			for (int mode = 0; mode < MODES.length; mode++) {
				double[] sum = this.sums[mode];
				throughput[mode] = sum[0] / sum[1];
				bytes[mode] = sum[2] / sum[0];
				cpu[mode] = sum[3] / 1e3 / sum[0];
				List<Double> slices = this.sliceThroughput.get(mode);
				System.out.printf(Locale.ROOT, "%-10s %10.0f %10.0f %14.2f %10.0f-%.0f%n", MODES[mode],
						throughput[mode], bytes[mode], cpu[mode], Collections.min(slices), Collections.max(slices));
			}
			double cost = throughput[DISABLED] - throughput[DEFAULT];
			double bytesCost = bytes[DEFAULT] - bytes[DISABLED];
			double cpuCost = cpu[DEFAULT] - cpu[DISABLED];
			System.out.printf(Locale.ROOT,
					"what instrumentation costs: %.0f req/s, %.0f B and %.2f us of server CPU " + "per request%n", cost,
					bytesCost, cpuCost);
			for (int mode = DEFAULT + 1; mode < DISABLED; mode++) {
				double recovered = throughput[mode] - throughput[DEFAULT];
				double bytesRecovered = bytes[DEFAULT] - bytes[mode];
				double cpuRecovered = cpu[DEFAULT] - cpu[mode];
				System.out.printf(Locale.ROOT,
						"recovered by %-11s %6.0f req/s (%4.0f%%), %5.0f B (%4.0f%%), " + "%5.2f us CPU (%4.0f%%)%n",
						MODES[mode] + ":", recovered, 100 * recovered / cost, bytesRecovered,
						100 * bytesRecovered / bytesCost, cpuRecovered, 100 * cpuRecovered / cpuCost);
			}
		}

	}

	private static int awaitPort(Process server) throws IOException {
		BufferedReader reader = new BufferedReader(
				new InputStreamReader(server.getInputStream(), StandardCharsets.US_ASCII));
		String line;
		while ((line = reader.readLine()) != null) {
			if (line.startsWith("PORT ")) {
				return Integer.parseInt(line.substring(5).trim());
			}
		}
		throw new IllegalStateException("The server ended before it told its port");
	}

	private static long read(int port, String path) throws IOException {
		try (Socket socket = new Socket("localhost", port)) {
			Exchange exchange = new Exchange(socket, path);
			return Long.parseLong(exchange.send());
		}
	}

	private static void serve(String mode, String stack) {
		boolean webflux = stack.equals("webflux");
		List<String> properties = new ArrayList<>(
				List.of("spring.main.web-application-type=" + (webflux ? "reactive" : "servlet"), "server.port=0",
						"spring.main.banner-mode=off", "logging.level.root=warn",
						"management.metrics.use-global-registry=false",
						// Keep connections open: Tomcat closes one after 100 requests by
						// default.
						"server.tomcat.max-keep-alive-requests=-1"));
		switch (mode) {
			case "default" -> properties.add("leanscrape.recording.enabled=false");
			case "handler" -> {
				properties.add("leanscrape.recording.enabled=true");
				properties.add("load.spring-convention=true");
				// Through Micrometer's observation: with Spring's own convention, Spring
				// WebFlux would otherwise record directly.
				properties.add("leanscrape.recording.direct-server-requests=false");
			}
			case "leanscrape" -> {
				properties.add("leanscrape.recording.enabled=true");
				properties.add("leanscrape.recording.direct-server-requests=false");
			}
			case "direct" -> {
				properties.add("leanscrape.recording.enabled=true");
				properties.add("leanscrape.recording.direct-server-requests=true");
			}
			case "disabled" -> {
				properties.add("leanscrape.recording.enabled=false");
				properties.add("management.observations.enable.http.server.requests=false");
			}
			default -> throw new IllegalArgumentException(mode);
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(LoadApplication.class)
			.properties(properties.toArray(String[]::new))
			.run();
		boolean direct = webflux ? recordsReactiveDirectly(context) : recordsDirectly(context);
		if (direct != mode.equals("direct")) {
			throw new IllegalStateException("Mode " + mode + (direct ? " records" : " does not record") + " directly");
		}
		Class<?> caching = webflux ? CachingReactiveServerRequestObservationConvention.class
				: CachingServerRequestObservationConvention.class;
		boolean cachingConvention = context.getBeanProvider(caching).getIfAvailable() != null;
		if (cachingConvention != (mode.equals("leanscrape") || mode.equals("direct"))) {
			throw new IllegalStateException(
					"The starter's convention is " + (cachingConvention ? "" : "not ") + "used in mode " + mode);
		}
		System.out.println("PORT " + context.getEnvironment().getProperty("local.server.port"));
		System.out.flush();
	}

	private static boolean recordsDirectly(ConfigurableApplicationContext context) {
		for (FilterRegistrationBean<?> registration : context.getBeansOfType(FilterRegistrationBean.class).values()) {
			if (registration.getFilter() instanceof ServerRequestMetricsFilter filter) {
				return filter.isBypassingObservations();
			}
		}
		return false;
	}

	private static boolean recordsReactiveDirectly(ConfigurableApplicationContext context) {
		return context.getBean(HttpHandler.class) instanceof HttpWebHandlerAdapter adapter
				&& adapter.getDelegate() instanceof ServerRequestRecordingWebHandler recording
				&& recording.isBypassingObservations();
	}

	/**
	 * The server: one trivial endpoint, and one that tells the bytes allocated so far by
	 * all live threads.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	// Spring Security is on the test class path (for the security tests): the load server
	// is open, as an application without it would be.
	@EnableAutoConfiguration(excludeName = {
			"org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration",
			"org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration" })
	@RestController
	static class LoadApplication {

		/**
		 * Spring's convention as the application's own, for the {@code handler} mode.
		 */
		@Bean
		@ConditionalOnBooleanProperty("load.spring-convention")
		@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
		ServerRequestObservationConvention springConvention() {
			return new DefaultServerRequestObservationConvention();
		}

		/**
		 * Spring's reactive convention as the application's own, for the {@code handler}
		 * mode on Spring WebFlux.
		 */
		@Bean
		@ConditionalOnBooleanProperty("load.spring-convention")
		@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
		org.springframework.http.server.reactive.observation.ServerRequestObservationConvention springReactiveConvention() {
			return new org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention();
		}

		@GetMapping("/hello")
		String hello() {
			return "hello";
		}

		@GetMapping("/allocated")
		String allocated() {
			com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
				.getThreadMXBean();
			long total = 0;
			for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
				if (bytes > 0) {
					total += bytes;
				}
			}
			return Long.toString(total);
		}

		@GetMapping("/cpu")
		String cpu() {
			return Long
				.toString(((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
					.getProcessCpuTime());
		}

	}

	/**
	 * Closed-loop load: one thread per keep-alive connection, each sending its next
	 * request when the previous answer has arrived.
	 */
	static final class Client {

		private final int port;

		private final Thread[] threads;

		private final AtomicLongArray counts;

		private volatile boolean running = true;

		Client(int port, int connections) {
			this.port = port;
			this.threads = new Thread[connections];
			// One counter per thread, 16 longs apart so that they do not share a cache
			// line.
			this.counts = new AtomicLongArray(connections * 16);
		}

		void start() {
			for (int i = 0; i < this.threads.length; i++) {
				int slot = i * 16;
				this.threads[i] = new Thread(() -> loop(slot), "load-" + i);
				this.threads[i].setDaemon(true);
				this.threads[i].start();
			}
		}

		private void loop(int slot) {
			try (Socket socket = new Socket("localhost", this.port)) {
				socket.setTcpNoDelay(true);
				Exchange exchange = new Exchange(socket, "/hello");
				while (this.running) {
					exchange.sendDiscarding();
					this.counts.lazySet(slot, this.counts.get(slot) + 1);
				}
			}
			catch (IOException ex) {
				if (this.running) {
					throw new IllegalStateException(ex);
				}
			}
		}

		long count() {
			long total = 0;
			for (int i = 0; i < this.threads.length; i++) {
				total += this.counts.get(i * 16);
			}
			return total;
		}

		void stop() throws InterruptedException {
			this.running = false;
			for (Thread thread : this.threads) {
				thread.join(5000);
			}
		}

	}

	/**
	 * One HTTP/1.1 request-response over a kept-alive socket, with a reused buffer. Knows
	 * just enough HTTP for a Content-Length response.
	 */
	static final class Exchange {

		private static final byte[] CONTENT_LENGTH = "content-length:".getBytes(StandardCharsets.US_ASCII);

		private final byte[] request;

		private final OutputStream out;

		private final InputStream in;

		private final byte[] buffer = new byte[8192];

		Exchange(Socket socket, String path) throws IOException {
			this.request = ("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
			this.out = socket.getOutputStream();
			this.in = socket.getInputStream();
		}

		String send() throws IOException {
			int end = exchange();
			return new String(this.buffer, this.bodyStart, end - this.bodyStart, StandardCharsets.US_ASCII);
		}

		void sendDiscarding() throws IOException {
			exchange();
		}

		private int bodyStart;

		private int exchange() throws IOException {
			this.out.write(this.request);
			int filled = 0;
			int headerEnd = -1;
			while (headerEnd < 0) {
				int read = this.in.read(this.buffer, filled, this.buffer.length - filled);
				if (read < 0) {
					throw new IOException("Connection closed");
				}
				filled += read;
				headerEnd = indexOfBlankLine(filled);
			}
			this.bodyStart = headerEnd + 4;
			int end = this.bodyStart + contentLength(headerEnd);
			while (filled < end) {
				int read = this.in.read(this.buffer, filled, this.buffer.length - filled);
				if (read < 0) {
					throw new IOException("Connection closed");
				}
				filled += read;
			}
			return end;
		}

		private int indexOfBlankLine(int filled) {
			for (int i = 0; i + 3 < filled; i++) {
				if (this.buffer[i] == '\r' && this.buffer[i + 1] == '\n' && this.buffer[i + 2] == '\r'
						&& this.buffer[i + 3] == '\n') {
					return i;
				}
			}
			return -1;
		}

		private int contentLength(int headerEnd) {
			outer: for (int i = 0; i + CONTENT_LENGTH.length < headerEnd; i++) {
				for (int j = 0; j < CONTENT_LENGTH.length; j++) {
					if (Character.toLowerCase(this.buffer[i + j]) != CONTENT_LENGTH[j]) {
						continue outer;
					}
				}
				int value = 0;
				for (int k = i + CONTENT_LENGTH.length; k < headerEnd && this.buffer[k] != '\r'; k++) {
					if (this.buffer[k] >= '0' && this.buffer[k] <= '9') {
						value = value * 10 + (this.buffer[k] - '0');
					}
				}
				return value;
			}
			throw new IllegalStateException("No Content-Length");
		}

	}

}
