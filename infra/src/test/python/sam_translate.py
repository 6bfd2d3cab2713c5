"""Expands a SAM template into plain CloudFormation, as CloudFormation's
AWS::Serverless-2016-10-31 transform does, with the SAM translator (the aws-sam-translator
package; cfn-lint and moto[server] bring it).

    python3 sam_translate.py TEMPLATE CODE_URI REGION > translated.json

CODE_URI replaces the CodeUri of every AWS::Serverless::Function: the transform takes S3
locations only (`sam deploy` uploads the local file and puts its S3 URI there). "-" keeps the
template's own (a CDK asset's bucket and key).
"""

import json
import os
import sys

from samtranslator.parser import parser
from samtranslator.translator.translator import Translator
from samtranslator.yaml_helper import yaml_parse


def main(template_path, code_uri, region):
    # The translator builds ARNs for the region of the default AWS settings.
    os.environ["AWS_DEFAULT_REGION"] = region
    with open(template_path, encoding="utf-8") as template_file:
        template = yaml_parse(template_file.read())
    for resource in template.get("Resources", {}).values():
        if resource.get("Type") == "AWS::Serverless::Function" and code_uri != "-":
            resource["Properties"]["CodeUri"] = code_uri
    # No SAM policy templates or managed policy names are used: the role is written out.
    translated = Translator(managed_policy_map={}, sam_parser=parser.Parser()).translate(
        sam_template=template, parameter_values={}, passthrough_metadata=False)
    json.dump(translated, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: sam_translate.py TEMPLATE CODE_URI REGION")
    main(*sys.argv[1:])
