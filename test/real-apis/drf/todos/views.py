from rest_framework import serializers, viewsets

from .models import Todo


class TodoSerializer(serializers.ModelSerializer):
    owner = serializers.ReadOnlyField(source='owner.id')

    class Meta:
        model = Todo
        fields = ['id', 'title', 'completed', 'owner', 'created']


class TodoViewSet(viewsets.ModelViewSet):
    queryset = Todo.objects.all()
    serializer_class = TodoSerializer
    filterset_fields = ['completed', 'owner']

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)
