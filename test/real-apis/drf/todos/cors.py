"""Lets the browser tests' page (another origin) call the API with its token."""


class AllowTestOrigins:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == 'OPTIONS':
            from django.http import HttpResponse

            response = HttpResponse(status=204)
        else:
            response = self.get_response(request)
        origin = request.headers.get('Origin')
        if origin:
            response['Access-Control-Allow-Origin'] = origin
            response['Access-Control-Allow-Headers'] = 'Authorization, Content-Type, If-None-Match'
            response['Access-Control-Allow-Methods'] = 'GET, POST, PUT, PATCH, DELETE'
            response['Access-Control-Expose-Headers'] = 'ETag'
        return response
