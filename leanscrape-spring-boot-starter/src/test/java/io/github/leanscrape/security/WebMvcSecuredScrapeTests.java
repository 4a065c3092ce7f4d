package io.github.leanscrape.security;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The secured endpoint on Spring MVC (Tomcat).
 */
@SpringBootTest(classes = SecuredScrapeApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=prometheus", "spring.security.user.name=scraper",
				"spring.security.user.password=secret" })
class WebMvcSecuredScrapeTests extends AbstractSecuredScrapeTests {

}
