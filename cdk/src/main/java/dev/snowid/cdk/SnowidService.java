package dev.snowid.cdk;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnResource;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.cloudformation.include.CfnInclude;
import software.amazon.awscdk.cloudformation.include.CfnIncludeProps;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.apigatewayv2.HttpApiAttributes;
import software.amazon.awscdk.services.apigatewayv2.IHttpApi;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.iam.IManagedPolicy;
import software.amazon.awscdk.services.iam.FromRoleArnOptions;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.s3.assets.Asset;
import software.amazon.awscdk.services.s3.assets.AssetProps;
import software.constructs.Construct;

/**
 * snowid in a CDK stack: exactly what infra/template.yaml deploys (lease table, the ids and lease
 * functions, the bearer authorizer, the HTTP API with its routes and throttles, alarms, dashboard,
 * the registry policy), with {@link SnowidServiceProps} in place of its parameters.
 *
 * <p>Why the template is included ({@link CfnInclude}) rather than rewritten as L2 constructs: the
 * SAM template stays the one truth, for SAM users and CDK users alike, and every check infra's
 * tests make of it holds here by construction. CfnInclude keeps the {@code Transform}, Rules,
 * Mappings, Conditions and Outputs. The parameters stay, with the props' values as their defaults:
 * so CloudFormation checks the Rules and constraints again at deploy time, the secret hashes stay
 * NoEcho, and the Conditions are as SAM users get them (replacing the parameters by literals would
 * leave conditions that compare constants, which cfn-lint flags). Set values through the props
 * only: {@code cdk deploy --parameters} would bypass the props' checks. Two things
 * are adapted, both mechanically: the function jar (carried by this jar) becomes an S3 asset in
 * place of the template's local CodeUri, and SAM's {@code !Ref Function.Alias}, which CfnInclude
 * cannot resolve before the transform, is written as the {@code !Sub "${Function.Alias}"} SAM
 * reads the same way. The logical IDs are the template's: one SnowidService per stack (the
 * template is one per region anyway).
 */
public final class SnowidService extends Construct {

    private static final List<String> FUNCTIONS = List.of("SnowidFunction", "ManagedIdsFunction", "LeaseFunction", "LeaseAuthorizerFunction");
    /** The roles hold exactly what the functions use (infra's tests check it): a grant to them adds no policy. */
    private static final FromRoleArnOptions IMMUTABLE = FromRoleArnOptions.builder().mutable(false).build();

    private final SnowidServiceProps props;
    private final CfnInclude template;
    private final ITable table;
    private final IHttpApi api;
    private final IRole functionRole;
    private IRole authorizerRole;
    private IManagedPolicy leaseClientPolicy;

    public SnowidService(Construct scope, String id, SnowidServiceProps props) {
        super(scope, id);
        this.props = props;
        Path work = workDirectory();
        this.template = new CfnInclude(this, "Template", CfnIncludeProps.builder()
                .templateFile(write(work.resolve(SnowidTemplate.RESOURCE), includable(SnowidTemplate.bundled().text())).toString())
                .build());
        props.parameters().forEach((name, value) ->
                template.getParameter(name).setDefaultValue(SnowidTemplate.bundled().asWritten(name, value)));
        Asset code = new Asset(this, "FunctionCode", AssetProps.builder()
                .path(functionJar(work).toString())
                .build());
        for (String function : FUNCTIONS) {
            template.getResource(function).addPropertyOverride("CodeUri",
                    Map.of("Bucket", code.getS3BucketName(), "Key", code.getS3ObjectKey()));
        }
        CfnResource leaseTable = template.getResource("LeaseTable");
        this.table = Table.fromTableName(this, "LeaseTable", leaseTable.getRef());
        this.api = HttpApi.fromHttpApiAttributes(this, "Api", HttpApiAttributes.builder()
                .httpApiId(template.getResource("Api").getRef())
                .build());
        this.functionRole = Role.fromRoleArn(this, "FunctionRole",
                Token.asString(template.getResource("FunctionRole").getAtt("Arn")), IMMUTABLE);
    }

    /**
     * SAM resolves {@code ${Function.Alias}} in a Sub exactly as it resolves {@code !Ref
     * Function.Alias}; CfnInclude reads only the former, as it checks each Ref before the
     * transform has made the alias.
     */
    static String includable(String templateText) {
        return templateText.replaceAll("!Ref (\\w+)\\.Alias\\b", "!Sub \"\\${$1.Alias}\"");
    }

    /** What agents and clients set as snowid.lease.url: the template's LeaseUrl output. */
    public String getLeaseUrl() {
        return Token.asString(template.getOutput("LeaseUrl").getValue());
    }

    /** The lease table (retained when the stack is deleted). */
    public ITable getTable() {
        return table;
    }

    /** The HTTP API (public routes and lease routes). */
    public IHttpApi getApi() {
        return api;
    }

    /**
     * The role of both functions: the lease table, its log group, and with a registry its block.
     * Immutable: name it in resource policies; a grant to it adds nothing to it.
     */
    public IRole getFunctionRole() {
        return functionRole;
    }

    /** The bearer authorizer's role (LeaseAuth=BEARER only): it writes its log lines, nothing else. Immutable too. */
    public IRole getAuthorizerRole() {
        requireLeaseAuth(SnowidServiceProps.LeaseAuth.BEARER, "the authorizer's role");
        if (authorizerRole == null) {
            authorizerRole = Role.fromRoleArn(this, "AuthorizerRole",
                    Token.asString(template.getResource("AuthorizerRole").getAtt("Arn")), IMMUTABLE);
        }
        return authorizerRole;
    }

    /** With LeaseAuth=AWS_IAM: execute-api:Invoke on exactly the lease routes (the template's LeaseClientPolicy). */
    public IManagedPolicy getLeaseClientPolicy() {
        requireLeaseAuth(SnowidServiceProps.LeaseAuth.AWS_IAM, "the lease client policy");
        if (leaseClientPolicy == null) {
            // Under the template's own condition, as the policy itself is: the stack stays valid for cfn-lint.
            leaseClientPolicy = ManagedPolicy.fromManagedPolicyArn(this, "LeaseClientPolicy", Token.asString(Fn.conditionIf(
                    template.getCondition("LeaseRoutesUseIam").getLogicalId(), template.getResource("LeaseClientPolicy").getRef(), Aws.NO_VALUE)));
        }
        return leaseClientPolicy;
    }

    /**
     * Lets the role call the lease routes (LeaseAuth=AWS_IAM): attaches {@link #getLeaseClientPolicy()}.
     * The role must also be one of the props' lease principals, or the function answers 403.
     */
    public void grantLeases(IRole role) {
        role.addManagedPolicy(getLeaseClientPolicy());
    }

    /** The included template, for what the accessors above do not reach (by the template's logical IDs). */
    public CfnInclude getTemplate() {
        return template;
    }

    private void requireLeaseAuth(SnowidServiceProps.LeaseAuth auth, String what) {
        if (!auth.name().equals(props.parameters().get("LeaseAuth"))) {
            throw new IllegalStateException("snowid: " + what + " exists with LeaseAuth=" + auth + " only; this service has LeaseAuth="
                    + props.parameters().get("LeaseAuth"));
        }
    }

    private static Path workDirectory() {
        try {
            Path work = Files.createTempDirectory("snowid-cdk");
            work.toFile().deleteOnExit();
            return work;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path functionJar(Path work) {
        Path jar = work.resolve(SnowidTemplate.FUNCTION_JAR);
        try (InputStream in = SnowidService.class.getResourceAsStream(SnowidTemplate.FUNCTION_JAR)) {
            if (in == null) {
                throw new IllegalStateException("snowid-cdk's jar has no " + SnowidTemplate.FUNCTION_JAR + ": it was built without it");
            }
            Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
            jar.toFile().deleteOnExit();
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
